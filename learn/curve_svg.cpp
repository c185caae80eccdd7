#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "learn/td.h"

namespace uckers {

std::string CurveSvg(const std::vector<CurvePoint>& curve, const std::string& title) {
  constexpr double kW = 640, kH = 360, kLeft = 60, kRight = 20, kTop = 40, kBottom = 50;
  double max_games = 1, lo = -100, hi = 100;
  for (const CurvePoint& p : curve) {
    max_games = std::max<double>(max_games, p.games);
    lo = std::min(lo, p.elo_lo);
    hi = std::max(hi, p.elo_hi);
  }
  lo = std::floor(lo / 100) * 100;
  hi = std::ceil(hi / 100) * 100;
  auto x = [&](double g) { return kLeft + (kW - kLeft - kRight) * g / max_games; };
  auto y = [&](double e) { return kTop + (kH - kTop - kBottom) * (hi - e) / (hi - lo); };
  std::string s = absl::StrFormat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%g\" y=\"22\" font-size=\"14\">%s</text>\n",
      kW, kH, kLeft, title);
  for (double e = lo; e <= hi + 1e-9; e += 100) {
    absl::StrAppendFormat(&s,
                          "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\"/>\n"
                          "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">%+g</text>\n",
                          kLeft, y(e), kW - kRight, y(e), e == 0 ? "#888" : "#ddd", kLeft - 6,
                          y(e) + 4, e);
  }
  for (int i = 0; i <= 4; ++i) {
    double g = max_games * i / 4;
    absl::StrAppendFormat(&s, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">%.0f</text>\n", x(g),
                          kH - kBottom + 18, g);
  }
  absl::StrAppendFormat(&s,
                        "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">self-play games "
                        "trained</text>\n<text x=\"14\" y=\"%g\" transform=\"rotate(-90 14 %g)\" "
                        "text-anchor=\"middle\">Elo vs classic (95 %%)</text>\n",
                        (kLeft + kW - kRight) / 2, kH - 12, kH / 2, kH / 2);
  std::string line;
  for (const CurvePoint& p : curve) {
    absl::StrAppendFormat(&s, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"#9ab\"/>\n",
                          x(p.games), y(p.elo_lo), x(p.games), y(p.elo_hi));
    absl::StrAppendFormat(&line, "%s%g,%g", line.empty() ? "" : " ", x(p.games), y(p.elo));
  }
  absl::StrAppendFormat(&s,
                        "<polyline points=\"%s\" fill=\"none\" stroke=\"#1565c0\" "
                        "stroke-width=\"2\"/>\n</svg>\n",
                        line);
  return s;
}

}  // namespace uckers
