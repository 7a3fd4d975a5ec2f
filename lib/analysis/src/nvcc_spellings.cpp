#include "nvcc_spellings.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <vector>

namespace coalesce::analysis {

namespace {

// The CUDA memory-space keywords nvcc lets an alignment specifier follow (alignasFirst).
constexpr std::string_view kMemorySpaceKeywords[] = {"__shared__", "__device__", "__constant__", "__managed__"};
bool memorySpaceKeyword(std::string_view word) {
  for (std::string_view k : kMemorySpaceKeywords)
    if (word == k) return true;
  return false;
}

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The word that ends just before `at`, whitespace skipped.
std::string_view wordBefore(std::string_view text, size_t at) {
  size_t end = at;
  while (end > 0 && blank(text[end - 1])) --end;
  size_t begin = end;
  while (begin > 0 && identifierChar(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

// From `from`, the launch's closing `>>>` or `>> >` at parenthesis depth 0, followed by its
// argument list's `(`; npos when a `;`, `{` or `}` comes first (not a launch).
size_t closingBrackets(std::string_view text, size_t from, bool& spaced, size_t& gapEnd) {
  int depth = 0;
  for (size_t i = from; i + 1 < text.size(); ++i) {
    const char c = text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ';' || c == '{' || c == '}' || depth < 0) return std::string_view::npos;
    if (depth != 0 || c != '>' || text[i + 1] != '>') continue;
    size_t j = i + 2;
    spaced = false;
    if (j < text.size() && text[j] != '>') {
      while (j < text.size() && blank(text[j])) ++j;
      if (j == i + 2 || j >= text.size() || text[j] != '>') return std::string_view::npos;
      spaced = true;
    }
    gapEnd = j;  // the third `>`
    size_t k = j + 1;
    while (k < text.size() && blank(text[k])) ++k;
    return k < text.size() && text[k] == '(' ? i : std::string_view::npos;
  }
  return std::string_view::npos;
}

}  // namespace


// nvcc accepts a C++11 alignment specifier after a CUDA memory-space keyword
// (`__shared__ alignas(alignof(float4)) float As[4][16][16]`, the samples'
// globalToShmemAsyncCopy); Clang does not ("an attribute list cannot appear here": the keyword
// is a GNU attribute, and `alignas` may only open the declaration), so the kernel failed to
// parse. The two are swapped, the whitespace between them kept in place: the same characters,
// lines and length. Nullopt when the text has no such pair.
std::optional<std::string> alignasFirst(std::string_view text) {
  // Most files with `alignas` have it first already (the toolkit's 1.1 MB cuda.h, read by
  // the driver for each file): those are not copied.
  bool swapped = false;
  for (size_t at = text.find("alignas"); at != std::string_view::npos && !swapped; at = text.find("alignas", at + 1)) {
    swapped = memorySpaceKeyword(wordBefore(text, at));
  }
  if (!swapped) return std::nullopt;
  std::string out(text);
  bool changed = false;
  for (std::string_view keyword : kMemorySpaceKeywords) {
    for (size_t at = out.find(keyword); at != std::string::npos; at = out.find(keyword, at + 1)) {
      if (at > 0 && identifierChar(out[at - 1])) continue;
      size_t spec = at + keyword.size();
      while (spec < out.size() && std::isspace(static_cast<unsigned char>(out[spec]))) ++spec;
      if (spec == at + keyword.size() || out.compare(spec, 7, "alignas") != 0) continue;
      size_t open = spec + 7;
      while (open < out.size() && std::isspace(static_cast<unsigned char>(out[open]))) ++open;
      if (open >= out.size() || out[open] != '(') continue;
      size_t close = open;
      for (int depth = 0; close < out.size(); ++close) {
        if (out[close] == '(') ++depth;
        if (out[close] == ')' && --depth == 0) break;
      }
      if (close >= out.size()) continue;
      const std::string gap = out.substr(at + keyword.size(), spec - at - keyword.size());
      const std::string specifier = out.substr(spec, close + 1 - spec);
      out.replace(at, close + 1 - at, specifier + gap + std::string(keyword));
      changed = true;
    }
  }
  return changed ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

std::optional<std::string> joinedLaunchBrackets(std::string_view text) {
  // Copied only when some `<<` is followed, after blanks, by a third `<` (a shift's `1 << 4`
  // is not).
  bool split = false;
  for (size_t at = text.find("<<"); at != std::string_view::npos && !split; at = text.find("<<", at + 2)) {
    size_t third = at + 2;
    while (third < text.size() && blank(text[third])) ++third;
    split = third > at + 2 && third < text.size() && text[third] == '<';
  }
  if (!split) return std::nullopt;
  std::string out(text);
  bool changed = false;
  for (size_t at = out.find("<<"); at != std::string::npos; at = out.find("<<", at + 2)) {
    if ((at > 0 && out[at - 1] == '<') || at + 2 >= out.size() || !blank(out[at + 2])) continue;
    size_t third = at + 2;
    while (third < out.size() && blank(out[third])) ++third;
    if (third + 1 >= out.size() || out[third] != '<' || out[third + 1] == '<' || out[third + 1] == '=') continue;
    // `operator<< <T>(...)`: an operator template's explicit arguments, not a launch.
    if (wordBefore(out, at) == "operator") continue;
    bool spaced = false;
    size_t gapEnd = 0;
    const size_t close = closingBrackets(out, third + 1, spaced, gapEnd);
    if (close == std::string::npos) continue;
    // The bracket moves over the gap; the gap's characters, newlines included, stay.
    out.erase(third, 1);
    out.insert(at + 2, 1, '<');
    if (spaced) {
      out.erase(gapEnd, 1);
      out.insert(close + 2, 1, '>');
    }
    changed = true;
    at = close;
  }
  return changed ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

// nvcc accepts a restrict qualifier written before the pointee's type, `const __restrict__
// IndexT *row_offsets` (the gardenia graph kernels), and reads it as the pointer's; Clang
// rejects it ("restrict requires a pointer or reference") and the kernel is lost. The
// qualifier moves behind the `*`: `const IndexT *__restrict__ row_offsets`, the same
// characters, length and lines. Only a one-word type followed by `*` on the same line.
std::optional<std::string> restrictAfterStar(std::string_view text) {
  if (text.find("__restrict") == std::string_view::npos) return std::nullopt;
  std::string out(text);
  bool changed = false;
  const auto sameLineBlank = [](char c) { return c == ' ' || c == '\t'; };
  for (size_t at = out.find("__restrict"); at != std::string::npos; at = out.find("__restrict", at + 1)) {
    if (at > 0 && identifierChar(out[at - 1])) continue;
    size_t word = at + 10;  // "__restrict" or "__restrict__"
    if (out.compare(word, 2, "__") == 0) word += 2;
    if (word < out.size() && identifierChar(out[word])) continue;
    const size_t keywordEnd = word;
    while (word < out.size() && sameLineBlank(out[word])) ++word;
    if (word == keywordEnd || word >= out.size() || !(std::isalpha(static_cast<unsigned char>(out[word])) || out[word] == '_'))
      continue;
    size_t typeEnd = word;
    while (typeEnd < out.size() && (identifierChar(out[typeEnd]) || (out[typeEnd] == ':' && typeEnd + 1 < out.size() && out[typeEnd + 1] == ':')))
      typeEnd += out[typeEnd] == ':' ? 2 : 1;
    const std::string_view type(out.data() + word, typeEnd - word);
    if (type == "const" || type == "volatile") continue;
    size_t star = typeEnd;
    while (star < out.size() && sameLineBlank(out[star])) ++star;
    if (star >= out.size() || out[star] != '*') continue;
    // [restrict][gap][type][gap2]* -> [type][gap2]*[restrict][gap]
    const std::string keyword = out.substr(at, keywordEnd - at), gap = out.substr(keywordEnd, word - keywordEnd);
    const std::string moved = out.substr(word, star + 1 - word);
    out.replace(at, star + 1 - at, moved + keyword + gap);
    changed = true;
    at = star;
  }
  return changed ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

// nvcc passes an inline PTX template's `%name` through as written (`asm("mov.u32 %0,
// %laneid;" : "=r"(id))`, PCL's kinfu utils.hpp); Clang reads `%` and a letter as an operand
// modifier and rejects the statement ("invalid % escape in inline assembly string"), and the
// function around it, a lane index helper every kernel calls, has an error. Each lone `%`
// before a letter in the template of an asm statement with operands is doubled, as GCC's
// syntax spells a literal `%`; the line keeps its length by losing one blank of the same
// string per `%` added (the blank before the register when there is one). A string with too
// few blanks is left as it is.
std::optional<std::string> doubledAsmPercents(std::string_view text) {
  if (text.find("asm") == std::string_view::npos || text.find('%') == std::string_view::npos) return std::nullopt;
  std::string out(text);
  bool changed = false;
  const auto skipBlanks = [&](size_t i) {
    while (i < out.size() && blank(out[i])) ++i;
    return i;
  };
  for (size_t at = out.find("asm"); at != std::string::npos; at = out.find("asm", at + 3)) {
    size_t start = at >= 2 && out.compare(at - 2, 2, "__") == 0 ? at - 2 : at;
    if (start > 0 && identifierChar(out[start - 1])) continue;
    size_t i = at + 3;
    if (out.compare(i, 2, "__") == 0) i += 2;
    if (i < out.size() && identifierChar(out[i])) continue;
    for (;;) {  // `asm volatile goto (`
      i = skipBlanks(i);
      size_t end = i;
      while (end < out.size() && identifierChar(out[end])) ++end;
      const std::string_view word(out.data() + i, end - i);
      if (word != "volatile" && word != "__volatile__" && word != "__volatile" && word != "goto" && word != "inline") break;
      i = end;
    }
    if (i >= out.size() || out[i] != '(') continue;
    std::vector<std::pair<size_t, size_t>> literals;  // [open quote, close quote]
    size_t j = skipBlanks(i + 1);
    while (j < out.size() && out[j] == '"') {
      size_t close = j + 1;
      while (close < out.size() && out[close] != '"' && out[close] != '\n') close += out[close] == '\\' ? 2 : 1;
      if (close >= out.size() || out[close] != '"') break;
      literals.emplace_back(j, close);
      j = skipBlanks(close + 1);
    }
    if (literals.empty() || j >= out.size() || out[j] != ':') continue;  // no operands: `%` is literal
    for (const auto& [open, close] : literals) {
      std::string body = out.substr(open + 1, close - open - 1);
      std::vector<size_t> lone;
      for (size_t k = 0; k + 1 < body.size(); ++k) {
        if (body[k] != '%') continue;
        if (body[k + 1] == '%') {
          ++k;
          continue;
        }
        if (std::isalpha(static_cast<unsigned char>(body[k + 1]))) lone.push_back(k);
      }
      const auto blanks = static_cast<size_t>(std::count_if(body.begin(), body.end(), [](char c) { return c == ' ' || c == '\t'; }));
      if (lone.empty() || blanks < lone.size()) continue;
      std::string fixed;
      size_t removed = 0;
      for (size_t k = 0; k < body.size(); ++k) {
        if (std::find(lone.begin(), lone.end(), k) != lone.end()) {
          if (!fixed.empty() && (fixed.back() == ' ' || fixed.back() == '\t')) {
            fixed.pop_back();
            ++removed;
          }
          fixed += '%';
        }
        fixed += body[k];
      }
      // Any blank still owed, from the end of the string.
      for (size_t k = fixed.size(); removed < lone.size() && k-- > 0;)
        if (fixed[k] == ' ' || fixed[k] == '\t') {
          fixed.erase(k, 1);
          ++removed;
        }
      out.replace(open + 1, body.size(), fixed);
      changed = true;
    }
    at = j;
  }
  return changed ? std::optional<std::string>(std::move(out)) : std::nullopt;
}

std::optional<std::string> nvccSpellings(std::string_view text) {
  std::optional<std::string> current;
  for (auto* rewrite : {&alignasFirst, &joinedLaunchBrackets, &restrictAfterStar, &doubledAsmPercents})
    if (std::optional<std::string> next = rewrite(current ? std::string_view(*current) : text)) current = std::move(next);
  return current;
}

}  // namespace coalesce::analysis
