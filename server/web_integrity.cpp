#include "server/web_integrity.h"

#include <openssl/evp.h>

#include "absl/strings/str_cat.h"

namespace uckers {

namespace {

// The base64 of `md` (EVP_EncodeBlock: no line breaks).
std::string Base64(const unsigned char* md, unsigned int size) {
  std::string out(4 * ((size + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), md, static_cast<int>(size));
  out.resize(n < 0 ? 0 : static_cast<size_t>(n));
  return out;
}

std::string DigestBase64(std::string_view bytes, const EVP_MD* kind) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &size, kind, nullptr) != 1) return "";
  return Base64(md, size);
}

}  // namespace

std::string IntegrityOf(std::string_view bytes) {
  return absl::StrCat("sha384-", DigestBase64(bytes, EVP_sha384()));
}

PinnedPage PinScripts(std::string_view html,
                      const std::vector<std::pair<std::string, std::string_view>>& scripts,
                      std::string_view base_policy) {
  PinnedPage page{std::string(html), std::string(base_policy)};
  size_t first = page.html.find("<script");
  if (first == std::string::npos || scripts.empty()) return page;
  std::vector<std::string> pins;
  std::string map = "{\"integrity\":{";
  for (size_t i = 0; i < scripts.size(); ++i) {
    pins.push_back(IntegrityOf(scripts[i].second));
    absl::StrAppend(&map, i ? "," : "", "\"./", scripts[i].first, "\":\"", pins[i], "\"");
  }
  map += "}}";
  // The page's own module scripts carry their integrity too.
  for (size_t i = 0; i < scripts.size(); ++i) {
    const std::string src = absl::StrCat("src=\"", scripts[i].first, "\"");
    for (size_t at = page.html.find(src); at != std::string::npos;
         at = page.html.find(src, at + 1)) {
      size_t open = page.html.rfind("<script", at);
      size_t close = page.html.find('>', at);
      if (open == std::string::npos || close == std::string::npos ||
          page.html.find('>', open) < at) {
        continue;  // not a script tag's src
      }
      const std::string attribute = absl::StrCat(" integrity=\"", pins[i], "\"");
      page.html.insert(at + src.size(), attribute);
    }
  }
  page.html.insert(first, absl::StrCat("<script type=\"importmap\">", map, "</script>\n"));
  page.policy = absl::StrCat(std::string(base_policy), "; script-src 'self' 'sha256-",
                             DigestBase64(map, EVP_sha256()), "'");
  return page;
}

}  // namespace uckers
