#include "coalesce/verify/sass.h"

#include <cctype>
#include <vector>

namespace coalesce::verify {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<std::string_view> splitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

}  // namespace

SassListing parseSassListing(std::string_view text) {
  SassListing out;
  std::string function;
  std::vector<std::pair<std::string, unsigned>> location;
  bool locationDone = false;  // an instruction followed the last "//## File" block
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    // cuobjdump: "Function : name"; nvdisasm: ".text.name:" labels.
    if (startsWith(line, "Function : ")) {
      function = std::string(trim(line.substr(11)));
      location.clear();
      continue;
    }
    if (startsWith(line, ".text.") && !line.empty() && line.back() == ':') {
      function = std::string(line.substr(6, line.size() - 7));
      location.clear();
      continue;
    }
    // nvdisasm -gi: '//## File "a.cu", line 12 inlined at "k.cu", line 30'
    if (startsWith(line, "//## File \"")) {
      if (locationDone) {
        location.clear();
        locationDone = false;
      }
      const size_t q = line.find('"', 11);  // the name starts after '//## File "'
      const size_t l = line.find(", line ", q == std::string_view::npos ? 0 : q);
      if (q == std::string_view::npos || l == std::string_view::npos) continue;
      unsigned n = 0;
      for (size_t i = l + 7; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i)
        n = n * 10 + static_cast<unsigned>(line[i] - '0');
      // Each line names one level; the first is the innermost.
      if (location.empty()) location.emplace_back(std::string(line.substr(11, q - 11)), n);
      const size_t at = line.find(" inlined at \"", l);
      if (at != std::string_view::npos) {
        const size_t q1 = at + 13, q2 = line.find('"', q1);
        const size_t l2 = q2 == std::string_view::npos ? q2 : line.find(", line ", q2);
        if (l2 != std::string_view::npos) {
          unsigned m = 0;
          for (size_t i = l2 + 7; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i)
            m = m * 10 + static_cast<unsigned>(line[i] - '0');
          location.emplace_back(std::string(line.substr(q1, q2 - q1)), m);
        }
      }
      continue;
    }
    // "/*0080*/                   LDG.E R2, desc[UR4][R2.64] ;"
    if (function.empty() || !startsWith(line, "/*")) continue;
    const size_t close = line.find("*/");
    if (close == std::string_view::npos) continue;
    const std::string_view hex = line.substr(2, close - 2);
    uint64_t pc = 0;
    bool ok = !hex.empty();
    for (char c : hex) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) {
        ok = false;
        break;
      }
      pc = pc * 16 + static_cast<uint64_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                                                                                       : std::tolower(c) - 'a' + 10);
    }
    if (!ok) continue;
    std::string_view rest = trim(line.substr(close + 2));
    if (rest.empty() || rest.front() == '/') continue;  // encoding-only continuation lines
    if (rest.front() == '@') {                          // predicate guard
      const size_t sp = rest.find(' ');
      if (sp == std::string_view::npos) continue;
      rest = trim(rest.substr(sp));
    }
    const size_t sp = rest.find_first_of(" ;");
    std::string_view opcode = rest.substr(0, sp);
    if (opcode.empty()) continue;
    SassInstruction& ins = out[{function, pc}];
    ins.opcode = std::string(opcode);
    ins.location = location;
    locationDone = true;
  }
  return out;
}

std::optional<OpcodeInfo> classifyOpcode(std::string_view opcode) {
  const auto parts = splitDots(opcode);
  if (parts.empty()) return std::nullopt;
  const std::string_view op = parts.front();
  OpcodeInfo info;
  if (op == "LDG") {
    info.space = model::Space::Global;
    info.kind = model::AccessKind::Load;
  } else if (op == "STG") {
    info.space = model::Space::Global;
    info.kind = model::AccessKind::Store;
  } else if (op == "ATOMG" || op == "RED" || op == "REDG" || op == "ATOM") {
    info.space = model::Space::Global;
    info.kind = model::AccessKind::Atomic;
  } else if (op == "LDS") {
    info.space = model::Space::Shared;
    info.kind = model::AccessKind::Load;
  } else if (op == "STS") {
    info.space = model::Space::Shared;
    info.kind = model::AccessKind::Store;
  } else if (op == "ATOMS") {
    info.space = model::Space::Shared;
    info.kind = model::AccessKind::Atomic;
  } else {
    return std::nullopt;
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string_view m = parts[i];
    if (m == "U8" || m == "S8") info.bytes = 1;
    else if (m == "U16" || m == "S16") info.bytes = 2;
    else if (m == "64") info.bytes = 8;
    else if (m == "128") info.bytes = 16;
  }
  return info;
}

size_t attachSass(Measurements& m, const SassListing& listing) {
  size_t found = 0;
  for (MeasuredInstruction& in : m.instructions) {
    auto it = listing.find({in.function, in.pc});
    if (it == listing.end()) continue;
    const SassInstruction& s = it->second;
    in.opcode = s.opcode;
    if (!s.location.empty()) {
      if (in.file.empty() || in.line == 0) {
        in.file = s.location.front().first;
        in.line = s.location.front().second;
      }
      in.inlinedAt.assign(s.location.begin() + 1, s.location.end());
    }
    ++found;
  }
  return found;
}

}  // namespace coalesce::verify
