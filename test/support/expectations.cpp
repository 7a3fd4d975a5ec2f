#include "expectations.h"

#include <fstream>
#include <sstream>

namespace coalesce::test {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// The text of the comment that starts with `marker` on `line`, up to the next "//";
// nullopt when the line has no such comment.
std::optional<std::string> commentBody(const std::string& line, const std::string& marker) {
  const auto at = line.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const auto begin = at + marker.size();
  const auto next = line.find("//", begin);
  return trim(line.substr(begin, next == std::string::npos ? std::string::npos : next - begin));
}

bool kebabCase(const std::string& id) {
  if (id.empty() || id.front() == '-' || id.back() == '-') return false;
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

std::optional<std::string> readFile(const std::string& path, std::vector<std::string>& errors) {
  std::ifstream f(path);
  if (!f) {
    errors.push_back("cannot read " + path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::optional<Expectation> parseOne(const std::string& text, unsigned line, std::string& error) {
  Expectation e;
  e.line = line;
  e.text = text;
  std::istringstream in(text);
  std::string tok;
  if (!(in >> e.space >> e.kind)) {
    error = "expected '<space> <kind> ...'";
    return std::nullopt;
  }
  if (e.space != "global" && e.space != "shared") {
    error = "unknown space '" + e.space + "'";
    return std::nullopt;
  }
  if (e.kind != "load" && e.kind != "store" && e.kind != "atomic") {
    error = "unknown kind '" + e.kind + "'";
    return std::nullopt;
  }
  while (in >> tok) {
    if (tok[0] == '!') {
      e.rule = tok.substr(1);
      continue;
    }
    const auto eq = tok.find('=');
    if (eq == std::string::npos) {
      error = "expected key=value, got '" + tok + "'";
      return std::nullopt;
    }
    const std::string key = tok.substr(0, eq), value = tok.substr(eq + 1);
    if (key == "pattern") {
      e.pattern = value;
      continue;
    }
    try {
      const auto dots = value.find("..");
      if (dots != std::string::npos)
        e.figures[key] = {std::stod(value.substr(0, dots)), std::stod(value.substr(dots + 2))};
      else
        e.figures[key] = {std::stod(value), std::stod(value)};
    } catch (const std::exception&) {
      error = "not a number in '" + tok + "'";
      return std::nullopt;
    }
  }
  return e;
}

}  // namespace

std::vector<Expectation> parseExpectations(const std::string& source, std::vector<std::string>& errors) {
  std::vector<Expectation> out;
  std::istringstream in(source);
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::optional<std::string> comment = commentBody(line, "// expect:");
    if (!comment) continue;
    const std::string& body = *comment;
    if (body == "none") continue;
    for (const std::string& part : split(body, ';')) {
      const std::string t = trim(part);
      if (t.empty()) continue;
      std::string error;
      if (auto e = parseOne(t, number, error))
        out.push_back(std::move(*e));
      else
        errors.push_back("line " + std::to_string(number) + ": " + error + " in '" + t + "'");
    }
  }
  return out;
}

std::vector<Expectation> parseExpectationsFile(const std::string& path, std::vector<std::string>& errors) {
  const std::optional<std::string> text = readFile(path, errors);
  return text ? parseExpectations(*text, errors) : std::vector<Expectation>{};
}

std::vector<FindingExpectation> parseFindingExpectations(const std::string& source, std::vector<std::string>& errors,
                                                         const std::string& marker) {
  std::vector<FindingExpectation> out;
  std::istringstream in(source);
  std::string line;
  unsigned number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::optional<std::string> body = commentBody(line, marker);
    if (!body) continue;
    std::string ids = *body;
    for (char& c : ids)
      if (c == ',' || c == ';') c = ' ';
    std::istringstream words(ids);
    std::string id;
    size_t count = 0;
    while (words >> id) {
      ++count;
      if (kebabCase(id))
        out.push_back({number, id});
      else
        errors.push_back("line " + std::to_string(number) + ": '" + id + "' is not a rule id in '" + *body + "'");
    }
    if (count == 0)
      errors.push_back("line " + std::to_string(number) + ": " + marker.substr(3, marker.size() - 4) + " names no rule");
  }
  return out;
}

std::vector<FindingExpectation> parseFindingExpectationsFile(const std::string& path, std::vector<std::string>& errors,
                                                             const std::string& marker) {
  const std::optional<std::string> text = readFile(path, errors);
  return text ? parseFindingExpectations(*text, errors, marker) : std::vector<FindingExpectation>{};
}

}  // namespace coalesce::test
