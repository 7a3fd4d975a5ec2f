// Escaping of everything a page takes from outside the tool: file names, source lines,
// kernel names, messages that quote them. One function for element text and quoted
// attribute values alike (the page writes every attribute in double quotes), so a caller
// cannot pick the wrong one; nothing taken from a source ever goes into a <script>, a
// <style>, a URL or an id (ids are numbers the writers make up).
#pragma once

#include <string>
#include <string_view>

namespace coalesce::html {

// `text` safe to place between tags or inside a double-quoted attribute: & < > " ' become
// character references; bytes that are not valid UTF-8, and control characters other than
// tab and newline (NUL, ESC, DEL, the C1 range), become U+FFFD, so the page stays valid
// UTF-8 whatever bytes a file name or a source line holds.
std::string escape(std::string_view text);
void appendEscaped(std::string& out, std::string_view text);

}  // namespace coalesce::html
