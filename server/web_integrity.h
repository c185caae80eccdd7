#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Subresource Integrity for the web board's scripts (w3.org/TR/SRI): each
// page is served with an import map that pins every script of the board by
// its SHA-384, and an integrity attribute on its own module script, so that
// a browser runs none of them changed on the way (by a proxy, a cache or a
// CDN in front of the server): the page's dealer check (web/dealer.js)
// included. The page's Content-Security-Policy allows that one inline
// import map by its hash and no other inline script.
namespace uckers {

// The integrity value of `bytes`: "sha384-" and the digest in base64.
std::string IntegrityOf(std::string_view bytes);

struct PinnedPage {
  std::string html;    // the page with its import map and integrity attributes
  std::string policy;  // `base_policy` with a script-src allowing the import map
};

// `html` with every script of `scripts` (file name, bytes) pinned: an
// import map of their integrity put before the page's first <script>, and
// `integrity` on each <script ... src="NAME"> of a pinned name. A page
// without a script is returned as it is, with `base_policy`.
PinnedPage PinScripts(std::string_view html,
                      const std::vector<std::pair<std::string, std::string_view>>& scripts,
                      std::string_view base_policy);

}  // namespace uckers
