// The warp pictures of the HTML report as inline SVG: the 32 lanes of one warp against the
// 32-byte sectors their bytes fall in (global), or the 32 banks against the wavefronts of
// each phase (shared). The layouts are warp_layout.h's, the ones --explain prints as text.
// Styled by the page's classes (lib/html/src/page_assets.cpp); no text from a source file is
// drawn, only numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "coalesce/model/access.h"
#include "coalesce/model/arch.h"

namespace coalesce::report::detail {

struct WarpPicture {
  std::string svg;      // the <svg> element
  std::string summary;  // "8 sectors (ideal 4); 128 of the 256 bytes moved are used"
};

// nullopt when the pattern gives no lane addresses (indirect, unknown), the warp does not
// exist, or the space is neither global nor shared.
std::optional<WarpPicture> warpPicture(const model::Access& access, const model::Dim3& block,
                                       const model::Arch& arch, int64_t warp);

}  // namespace coalesce::report::detail
