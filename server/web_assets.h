#pragma once

#include <string_view>
#include <vector>

// The web board's files (web/), built into the binary by
// server/embed_web.cmake and served at `/` by the Connect front.
namespace uckers {

struct WebAsset {
  std::string_view name;  // a file name of web/, like "app.js"
  const char* data;
  size_t size;
};

const std::vector<WebAsset>& WebAssets();

}  // namespace uckers
