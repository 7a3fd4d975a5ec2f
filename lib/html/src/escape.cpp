#include "coalesce/html/escape.h"

#include <cstdint>

namespace coalesce::html {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence starting at text[i] (Unicode 15, table 3-7:
// no overlong forms, no surrogates, nothing above U+10FFFF), or 0 when it is not one.
size_t sequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80) return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

// C1 controls (U+0080..U+009F) are encoded as C2 80..C2 9F; HTML calls them parse errors.
bool isC1Control(std::string_view text, size_t i, size_t n) {
  return n == 2 && static_cast<uint8_t>(text[i]) == 0xC2 && static_cast<uint8_t>(text[i + 1]) <= 0x9F;
}

}  // namespace

void appendEscaped(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size());
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const size_t n = sequenceLength(text, i);
    if (n == 0) {  // an invalid byte: one replacement per byte, and go on with the next
      out += kReplacement;
      ++i;
      continue;
    }
    if (n > 1) {
      if (isC1Control(text, i, n))
        out += kReplacement;
      else
        out.append(text.substr(i, n));
      i += n;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t':
      case '\n': out += c; break;
      default:
        if (static_cast<uint8_t>(c) < 0x20 || c == 0x7F)
          out += kReplacement;
        else
          out += c;
    }
    ++i;
  }
}

std::string escape(std::string_view text) {
  std::string out;
  appendEscaped(out, text);
  return out;
}

}  // namespace coalesce::html
