// ProgramFacts: questions about host values over the summaries of every file of a program
// (program_facts.h). Plain C++: the summaries are made from Clang's ASTs by host_summary.cpp.
#include "program_facts.h"

#include <deque>

namespace coalesce::analysis {

namespace {
// Parameters followed through callers, one chain at a time (wrappers of wrappers).
constexpr size_t kMaxParameterChain = 32;
}  // namespace

void ProgramFacts::add(const HostSummary& s) {
  calls_.insert(calls_.end(), s.calls.begin(), s.calls.end());
  writes_.insert(writes_.end(), s.writes.begin(), s.writes.end());
  defined_.insert(s.defined.begin(), s.defined.end());
  roots_.insert(s.roots.begin(), s.roots.end());
  reachable_.reset();
}

// The functions the program can run: from `main` and the functions named other than by a
// call, through the calls. Empty when no `main` was seen: then every function counts.
const std::set<std::string>& ProgramFacts::reachable() const {
  if (reachable_) return *reachable_;
  reachable_.emplace();
  if (!defined_.count("main")) return *reachable_;
  std::map<std::string, std::set<std::string>> callees;
  for (const HostSummary::Call& c : calls_) callees[c.caller].insert(c.callee);
  std::deque<std::string> todo(roots_.begin(), roots_.end());
  todo.push_back("main");
  todo.push_back("");  // initialisers of globals
  while (!todo.empty()) {
    std::string f = std::move(todo.front());
    todo.pop_front();
    if (!reachable_->insert(f).second) continue;
    for (const std::string& g : callees[f]) todo.push_back(g);
  }
  return *reachable_;
}

std::optional<std::set<int64_t>> ProgramFacts::valuesOf(const SummaryValue& v,
                                                        std::set<std::pair<std::string, int>>& open) const {
  switch (v.kind) {
    case SummaryValue::Kind::Constant: return std::set<int64_t>{v.constant};
    case SummaryValue::Kind::Parameter: return parameterValues(v.function, v.parameter, open);
    case SummaryValue::Kind::Unknown: break;
  }
  return std::nullopt;
}

std::optional<std::set<int64_t>> ProgramFacts::parameterValues(const std::string& function, int index,
                                                               std::set<std::pair<std::string, int>>& open) const {
  if (function == "main" || open.size() > kMaxParameterChain) return std::nullopt;
  // A parameter met again on its own chain (recursion) adds no value of its own.
  if (!open.insert({function, index}).second) return std::set<int64_t>{};
  const std::set<std::string>& live = reachable();
  std::set<int64_t> out;
  bool any = false;
  for (const HostSummary::Call& c : calls_) {
    if (c.callee != function || (!live.empty() && !live.count(c.caller))) continue;
    if (index >= static_cast<int>(c.args.size())) {
      open.erase({function, index});
      return std::nullopt;
    }
    auto values = valuesOf(c.args[static_cast<size_t>(index)], open);
    if (!values) {
      open.erase({function, index});
      return std::nullopt;
    }
    out.insert(values->begin(), values->end());
    any = true;
  }
  open.erase({function, index});
  if (!any) return std::nullopt;  // called from nowhere the program shows: from outside it
  return out;
}

std::optional<int64_t> ProgramFacts::parameterValue(const std::string& function, int index) const {
  std::set<std::pair<std::string, int>> open;
  auto values = parameterValues(function, index, open);
  if (!values || values->size() != 1) return std::nullopt;
  return *values->begin();
}

std::optional<int64_t> ProgramFacts::memberValue(const std::string& record, const std::string& member) const {
  if (record.empty()) return std::nullopt;
  const std::set<std::string>& live = reachable();
  std::set<int64_t> out;
  for (const HostSummary::MemberWrite& w : writes_) {
    if (w.record != record || w.member != member || (!live.empty() && !live.count(w.caller))) continue;
    if (w.pointer) return std::nullopt;
    std::set<std::pair<std::string, int>> open;
    auto values = valuesOf(w.value, open);
    if (!values) return std::nullopt;
    out.insert(values->begin(), values->end());
  }
  if (out.size() != 1) return std::nullopt;
  return *out.begin();
}

std::optional<int64_t> ProgramFacts::memberPointerBytes(const std::string& record, const std::string& member) const {
  if (record.empty()) return std::nullopt;
  const std::set<std::string>& live = reachable();
  std::optional<int64_t> common;
  for (const HostSummary::MemberWrite& w : writes_) {
    if (w.record != record || w.member != member || (!live.empty() && !live.count(w.caller))) continue;
    if (!w.pointer || !w.pointerBytes || (common && *common != *w.pointerBytes)) return std::nullopt;
    common = w.pointerBytes;
  }
  return common;
}

}  // namespace coalesce::analysis
