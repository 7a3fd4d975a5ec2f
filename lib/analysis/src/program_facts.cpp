// ProgramFacts: questions about host values over the summaries of every file of a program
// (program_facts.h). Plain C++: the summaries are made from Clang's ASTs by host_summary.cpp.
#include "program_facts.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>

namespace coalesce::analysis {

namespace {
// Parameters followed through callers, one chain at a time (wrappers of wrappers).
constexpr size_t kMaxParameterChain = 32;
// Values of one host loop's counter enumerated (the scan sample's sizes, 4 to 1024 doubling:
// 9); a longer loop is not enumerated.
constexpr size_t kMaxLoopValues = 64;

bool holds(SummaryLoop::Compare c, int64_t v, int64_t bound) {
  switch (c) {
    case SummaryLoop::Compare::Less: return v < bound;
    case SummaryLoop::Compare::LessEqual: return v <= bound;
    case SummaryLoop::Compare::Greater: return v > bound;
    case SummaryLoop::Compare::GreaterEqual: return v >= bound;
    case SummaryLoop::Compare::NotEqual: return v != bound;
  }
  return false;
}

std::optional<int64_t> stepped(SummaryLoop::Step s, int64_t v, int64_t by) {
  switch (s) {
    case SummaryLoop::Step::Add: return v + by;
    case SummaryLoop::Step::Multiply: return by > 1 ? std::optional<int64_t>(v * by) : std::nullopt;
    case SummaryLoop::Step::Divide: return by > 1 ? std::optional<int64_t>(v / by) : std::nullopt;
    case SummaryLoop::Step::ShiftLeft: return by > 0 && by < 62 ? std::optional<int64_t>(v << by) : std::nullopt;
    case SummaryLoop::Step::ShiftRight: return by > 0 && by < 62 ? std::optional<int64_t>(v >> by) : std::nullopt;
  }
  return std::nullopt;
}
// The iterations of `for (v = a; v CMP b; v += by)`; nullopt for one that would not end.
std::optional<double> additiveTrips(SummaryLoop::Compare compare, int64_t a, int64_t b, int64_t by) {
  if (!holds(compare, a, b)) return 0.0;
  if (by == 0) return std::nullopt;
  int64_t span = 0;  // how far the counter moves while the condition holds, counted from 1
  switch (compare) {
    case SummaryLoop::Compare::Less: span = b - a; break;
    case SummaryLoop::Compare::LessEqual: span = b - a + 1; break;
    case SummaryLoop::Compare::Greater: span = a - b; break;
    case SummaryLoop::Compare::GreaterEqual: span = a - b + 1; break;
    case SummaryLoop::Compare::NotEqual:
      if ((b - a) % by != 0 || (b - a) / by < 0) return std::nullopt;  // never meets the bound
      return static_cast<double>((b - a) / by);
  }
  const bool up = compare == SummaryLoop::Compare::Less || compare == SummaryLoop::Compare::LessEqual;
  if (up != (by > 0)) return std::nullopt;
  const int64_t step = by > 0 ? by : -by;
  return static_cast<double>((span + step - 1) / step);
}
}  // namespace

void ProgramFacts::add(const HostSummary& s) {
  complete_ = complete_ && s.complete;
  // A call an earlier summary holds already is the same call read again: Rodinia's myocyte
  // compiles main.cu, which includes work.cu, which includes kernel.cu; analysed alone,
  // kernel.cu's own summary and main.cu's (its sibling's) both hold kernel.cu's launches, and
  // counting them twice would double every run count. Calls of one summary at one site
  // (instantiations of one template) all count, as they always did.
  std::set<std::string> added;
  for (const HostSummary::Call& c : s.calls) {
    if (!c.site.empty() && sites_.count(c.site)) continue;
    calls_.push_back(c);
    if (!c.site.empty()) added.insert(c.site);
  }
  sites_.insert(added.begin(), added.end());
  writes_.insert(writes_.end(), s.writes.begin(), s.writes.end());
  defined_.insert(s.defined.begin(), s.defined.end());
  roots_.insert(s.roots.begin(), s.roots.end());
  constants_.insert(s.constants.begin(), s.constants.end());
  reachable_.reset();
  byCallee_.reset();
  keptValues_.clear();
  keptRuns_.clear();
}

const std::vector<size_t>& ProgramFacts::callsOf(const std::string& callee) const {
  static const std::vector<size_t> none;
  if (!byCallee_) {
    byCallee_.emplace();
    for (size_t i = 0; i < calls_.size(); ++i) (*byCallee_)[calls_[i].callee].push_back(i);
  }
  const auto it = byCallee_->find(callee);
  return it == byCallee_->end() ? none : it->second;
}

void ProgramFacts::visit(Question q, const std::pair<std::string, int>& asked, size_t size, bool guarded) const {
  for (Trace* t : traces_) {
    if (t->question != q) continue;
    t->deepest = std::max(t->deepest, size);
    t->visited.insert(asked);
    t->guarded = t->guarded || guarded;
  }
}

void ProgramFacts::takeDefault(const std::string& taken) const {
  if (std::find(optionDefaults_->begin(), optionDefaults_->end(), taken) == optionDefaults_->end())
    optionDefaults_->push_back(taken);
  for (Trace* t : traces_) t->defaults.push_back(taken);
}

void ProgramFacts::remember(std::map<KeptKey, Kept>& store, const KeptKey& key, Trace&& trace, size_t size,
                            Kept answer) const {
  if (trace.guarded) return;  // it met a question open above it, or the depth guard
  answer.height = trace.deepest - size;
  answer.trace = std::move(trace);
  store[key] = std::move(answer);
}

void ProgramFacts::replay(Question q, const Kept& kept, size_t size) const {
  for (Trace* t : traces_) {
    if (t->question != q) continue;
    t->deepest = std::max(t->deepest, size + kept.height);
    t->visited.insert(kept.trace.visited.begin(), kept.trace.visited.end());
  }
  for (const std::string& taken : kept.trace.defaults) takeDefault(taken);
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

std::optional<std::set<int64_t>> ProgramFacts::valuesOf(const SummaryValue& v, const HostSummary::Call* call,
                                                        std::set<std::pair<std::string, int>>& open) const {
  switch (v.kind) {
    case SummaryValue::Kind::Constant: return std::set<int64_t>{v.constant};
    case SummaryValue::Kind::Parameter: return parameterValues(v.function, v.parameter, open);
    case SummaryValue::Kind::Global:
      if (auto c = constants_.find(v.function); c != constants_.end()) return std::set<int64_t>{c->second};
      break;
    case SummaryValue::Kind::Counter:
      if (call && v.parameter >= 0 && static_cast<size_t>(v.parameter) < call->loops.size())
        if (auto values = loopValues(call->loops[static_cast<size_t>(v.parameter)]))
          return std::set<int64_t>(values->begin(), values->end());
      break;
    case SummaryValue::Kind::OptionDefault:
      // Only where a question asks for the defaults (DefaultsTaken): the cost's, and a launch's
      // block, whose defaults the block's detail then names (launchesOf, session 34).
      if (optionDefaults_) {
        takeDefault("`" + v.function + "` " + std::to_string(v.constant));
        return std::set<int64_t>{v.constant};
      }
      break;
    case SummaryValue::Kind::Unknown: break;
  }
  return std::nullopt;
}

std::optional<std::vector<int64_t>> ProgramFacts::loopValues(const SummaryLoop& loop) const {
  if (!loop.followable) return std::nullopt;
  std::set<std::pair<std::string, int>> open;
  const auto start = valuesOf(loop.start, nullptr, open);
  const auto bound = valuesOf(loop.bound, nullptr, open);
  if (!start || !bound || start->size() != 1 || bound->size() != 1) return std::nullopt;
  std::vector<int64_t> out;
  for (std::optional<int64_t> v = *start->begin(); v && holds(loop.compare, *v, *bound->begin());
       v = stepped(loop.step, *v, loop.by)) {
    if (out.size() >= kMaxLoopValues || (!out.empty() && out.back() == *v)) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<double> ProgramFacts::loopTrips(const HostSummary::Call& call, int except) const {
  double trips = 1;
  for (size_t i = 0; i < call.loops.size(); ++i) {
    if (static_cast<int>(i) == except) continue;
    const SummaryLoop& loop = call.loops[i];
    std::optional<double> count;
    if (loop.followable && loop.step == SummaryLoop::Step::Add) {
      // Counted, not enumerated: `for (int i = 0; i < iCycles; i++)` runs 100 times.
      std::set<std::pair<std::string, int>> open;
      const auto start = valuesOf(loop.start, nullptr, open);
      const auto bound = valuesOf(loop.bound, nullptr, open);
      if (start && bound && start->size() == 1 && bound->size() == 1)
        count = additiveTrips(loop.compare, *start->begin(), *bound->begin(), loop.by);
    } else if (const auto values = loopValues(loop)) {
      count = static_cast<double>(values->size());
    }
    if (!count) return std::nullopt;
    trips *= *count;
  }
  return trips * call.share;
}

namespace {
// Points ProgramFacts' option-default collection at `target` for one question: the cost's, or a
// launch's block in another file (launchesOf).
class DefaultsTaken {
 public:
  DefaultsTaken(std::vector<std::string>*& slot, std::vector<std::string>& target) : slot_(slot), outer_(slot) {
    slot_ = &target;
  }
  ~DefaultsTaken() { slot_ = outer_; }
  DefaultsTaken(const DefaultsTaken&) = delete;
  DefaultsTaken& operator=(const DefaultsTaken&) = delete;

 private:
  std::vector<std::string>*& slot_;
  std::vector<std::string>* outer_;
};
}  // namespace

std::vector<ProgramFacts::KernelLaunch> ProgramFacts::launchesOf(const std::string& kernel,
                                                                 const std::string& templateArgs) const {
  std::vector<KernelLaunch> out;
  const std::set<std::string>& live = reachable();
  auto one = [&](const SummaryValue& v, const HostSummary::Call& c) -> std::optional<int64_t> {
    std::set<std::pair<std::string, int>> open;
    const auto values = valuesOf(v, &c, open);
    return values && values->size() == 1 ? std::optional<int64_t>(*values->begin()) : std::nullopt;
  };
  for (const HostSummary::Call& c : calls_) {
    if (!c.launch || c.callee != kernel || c.launch->templateArgs != templateArgs ||
        (!live.empty() && !live.count(c.caller)))
      continue;
    KernelLaunch l;
    for (int a = 0; a < 3; ++a) {
      l.grid[a] = one(c.launch->grid[a], c);
      l.block[a] = one(c.launch->block[a], c);
    }
    if (!l.block[0] || !l.block[1] || !l.block[2]) {
      // `int threads = 256; if (argc > 2) threads = atoi(argv[2]);` in the launching file.
      std::vector<std::string> taken;
      std::array<std::optional<int64_t>, 3> block;
      {
        DefaultsTaken scope(optionDefaults_, taken);
        for (int a = 0; a < 3; ++a) block[a] = one(c.launch->block[a], c);
      }
      if (block[0] && block[1] && block[2] && !taken.empty()) {
        l.block = block;
        l.blockDefaults = std::move(taken);
      }
    }
    l.sharedBytes = one(c.launch->sharedBytes, c);
    for (size_t i = 0; i < c.args.size(); ++i)
      if (auto v = one(c.args[i], c)) l.args[static_cast<unsigned>(i)] = *v;
    l.where = c.launch->where;
    // Call::site is "path:expansion offset:spelling offset".
    if (const size_t spelling = c.site.rfind(':'); spelling != std::string::npos && spelling > 0)
      if (const size_t expansion = c.site.rfind(':', spelling - 1); expansion != std::string::npos)
        l.file = c.site.substr(0, expansion);
    const auto outer = callsPerRun(c.caller);
    const auto trips = loopTrips(c);
    if (outer && trips) l.runs = *outer * *trips;
    out.push_back(std::move(l));
  }
  return out;
}

std::optional<double> ProgramFacts::callsPerRun(const std::string& function) const {
  std::set<std::string> open;
  return callsPerRun(function, open);
}

std::optional<double> ProgramFacts::callsPerRun(const std::string& function, std::set<std::string>& open) const {
  if (function == "main") return 1.0;
  const std::pair<std::string, int> asked{function, 0};
  const size_t size = open.size();
  if (size > kMaxParameterChain || open.count(function)) {  // recursion
    visit(Question::Runs, asked, size, true);
    return std::nullopt;
  }
  visit(Question::Runs, asked, size, false);
  const KeptKey key{function, 0, optionDefaults_ != nullptr};
  if (const auto k = keptRuns_.find(key); k != keptRuns_.end() && size + k->second.height <= kMaxParameterChain &&
                                           std::none_of(k->second.trace.visited.begin(), k->second.trace.visited.end(),
                                                        [&](const auto& v) { return open.count(v.first) > 0; })) {
    replay(Question::Runs, k->second, size);
    return k->second.runs;
  }
  Trace trace;
  trace.question = Question::Runs;
  trace.deepest = size;
  traces_.push_back(&trace);
  open.insert(function);
  const std::optional<double> runs = [&]() -> std::optional<double> {
    const std::set<std::string>& live = reachable();
    double total = 0;
    bool any = false;
    for (size_t i : callsOf(function)) {
      const HostSummary::Call& c = calls_[i];
      if (c.caller == function || (!live.empty() && !live.count(c.caller))) continue;
      any = true;
      const auto outer = callsPerRun(c.caller, open);
      const auto trips = loopTrips(c);
      if (!outer || !trips) return std::nullopt;
      total += *outer * *trips;
    }
    if (!any) return live.empty() || roots_.count(function) ? 1.0 : 0.0;
    return total;
  }();
  open.erase(function);
  traces_.pop_back();
  Kept answer;
  answer.runs = runs;
  remember(keptRuns_, key, std::move(trace), size, std::move(answer));
  return runs;
}

std::optional<ProgramFacts::AssumedRuns> ProgramFacts::callsPerRunAssumed(const std::string& function) const {
  std::vector<std::string> defaults;
  std::optional<AssumedRuns> out;
  {
    DefaultsTaken taken(optionDefaults_, defaults);
    std::set<std::string> open;
    out = callsPerRunAssumed(function, open);
  }
  if (out) out->defaults = std::move(defaults);
  return out;
}

// As callsPerRun, but a loop around a call whose count the program does not show (a `do ...
// while (delta > threshold)`, a bound the input sets) counts once and is said, as a device
// loop of unknown count is (launch_requests.cpp), and a loop whose start or bound is a
// parameter the program's calls fix is counted.
std::optional<ProgramFacts::AssumedRuns> ProgramFacts::callsPerRunAssumed(const std::string& function,
                                                                           std::set<std::string>& open) const {
  if (function == "main") {
    AssumedRuns fromMain;
    fromMain.fromMain = true;
    return fromMain;
  }
  if (open.size() > kMaxParameterChain || !open.insert(function).second) return std::nullopt;  // recursion
  const auto tripsOf = [&](const SummaryLoop& loop) -> std::optional<double> {
    std::set<std::pair<std::string, int>> none;
    const auto start = valuesOf(loop.start, nullptr, none);
    const auto bound = start ? valuesOf(loop.bound, nullptr, none) : std::nullopt;
    if (!start || !bound || start->size() != 1 || bound->size() != 1) return std::nullopt;
    if (loop.step == SummaryLoop::Step::Add) return additiveTrips(loop.compare, *start->begin(), *bound->begin(), loop.by);
    size_t n = 0;
    int64_t last = 0;
    for (std::optional<int64_t> v = *start->begin(); v && holds(loop.compare, *v, *bound->begin());
         v = stepped(loop.step, *v, loop.by)) {
      if (n >= kMaxLoopValues || (n > 0 && last == *v)) return std::nullopt;
      last = *v;
      ++n;
    }
    return static_cast<double>(n);
  };
  const std::set<std::string>& live = reachable();
  AssumedRuns total;
  total.runs = 0;
  total.fromMain = true;
  bool any = false;
  for (size_t i : callsOf(function)) {
    const HostSummary::Call& c = calls_[i];
    if (c.caller == function || (!live.empty() && !live.count(c.caller))) continue;
    any = true;
    const auto outer = callsPerRunAssumed(c.caller, open);
    if (!outer) {
      open.erase(function);
      return std::nullopt;
    }
    double trips = 1;
    bool unknown = false;
    for (const SummaryLoop& loop : c.loops) {
      if (const auto n = tripsOf(loop)) trips *= *n;
      else unknown = true;
    }
    total.runs += outer->runs * trips * c.share;
    total.unknownLoops = total.unknownLoops || unknown || outer->unknownLoops;
    total.fromMain = total.fromMain && outer->fromMain;
    std::string here = "`" + function + "` in " + (c.caller.empty() ? std::string("a global's initialiser") : c.caller + "()");
    if (c.share < 1) {  // an `if (i % k == 0)` arm: 1 in k of the loops' iterations
      char percent[32];
      std::snprintf(percent, sizeof percent, "%.3g", c.share * 100);
      here += std::string(" in ") + percent + " % of the loops' iterations (an `if (i % k == 0)` arm)";
    }
    if (!c.loops.empty() && std::find(total.loops.begin(), total.loops.end(), here) == total.loops.end())
      total.loops.push_back(here);
    for (const std::string& l : outer->loops)
      if (std::find(total.loops.begin(), total.loops.end(), l) == total.loops.end()) total.loops.push_back(l);
  }
  open.erase(function);
  if (!any) {
    AssumedRuns once;
    once.runs = live.empty() || roots_.count(function) ? 1.0 : 0.0;
    once.called = false;
    return once;
  }
  return total;
}

std::optional<int64_t> ProgramFacts::parameterDefault(const std::string& function, int index,
                                                      std::vector<std::string>& defaults) const {
  std::vector<std::string> taken;
  std::optional<std::set<int64_t>> values;
  {
    DefaultsTaken scope(optionDefaults_, taken);
    std::set<std::pair<std::string, int>> open;
    values = parameterValues(function, index, open);
  }
  if (!values || values->size() != 1) return std::nullopt;
  for (std::string& t : taken)
    if (std::find(defaults.begin(), defaults.end(), t) == defaults.end()) defaults.push_back(std::move(t));
  return *values->begin();
}

std::optional<std::map<int64_t, double>> ProgramFacts::parameterRuns(const std::string& function, int index) const {
  std::set<std::pair<std::string, int>> open;
  return parameterRuns(function, index, open);
}

std::optional<std::map<int64_t, double>> ProgramFacts::parameterRuns(const std::string& function, int index,
                                                                     std::set<std::pair<std::string, int>>& open) const {
  if (function == "main" || open.size() > kMaxParameterChain || !open.insert({function, index}).second)
    return std::nullopt;
  const std::set<std::string>& live = reachable();
  std::map<int64_t, double> out;
  bool any = false, known = true;
  for (size_t i : callsOf(function)) {
    const HostSummary::Call& c = calls_[i];
    if (!live.empty() && !live.count(c.caller)) continue;
    if (c.caller == function || index >= static_cast<int>(c.args.size())) {
      known = false;
      break;
    }
    any = true;
    const SummaryValue& arg = c.args[static_cast<size_t>(index)];
    const auto outer = callsPerRun(c.caller);
    if (arg.kind == SummaryValue::Kind::Parameter) {
      // Each value the caller's own parameter takes, as often as the caller runs with it.
      const auto inner = parameterRuns(arg.function, arg.parameter, open);
      const auto trips = loopTrips(c);
      if (!inner || !trips) {
        known = false;
        break;
      }
      for (const auto& [v, n] : *inner) out[v] += n * *trips;
    } else if (arg.kind == SummaryValue::Kind::Counter) {
      // Each value of the loop's counter once per run of the other loops around the call.
      const auto values = arg.parameter >= 0 && static_cast<size_t>(arg.parameter) < c.loops.size()
                              ? loopValues(c.loops[static_cast<size_t>(arg.parameter)])
                              : std::nullopt;
      const auto trips = loopTrips(c, arg.parameter);
      if (!values || !trips || !outer) {
        known = false;
        break;
      }
      for (int64_t v : *values) out[v] += *outer * *trips;
    } else {
      std::set<std::pair<std::string, int>> none;
      const auto values = valuesOf(arg, &c, none);
      const auto trips = loopTrips(c);
      if (!values || values->size() != 1 || !trips || !outer) {
        known = false;
        break;
      }
      out[*values->begin()] += *outer * *trips;
    }
  }
  open.erase({function, index});
  if (!known || !any) return std::nullopt;
  return out;
}

std::optional<std::set<int64_t>> ProgramFacts::parameterValues(const std::string& function, int index,
                                                               std::set<std::pair<std::string, int>>& open) const {
  if (function == "main") return std::nullopt;
  const std::pair<std::string, int> asked{function, index};
  const size_t size = open.size();
  if (size > kMaxParameterChain) {
    visit(Question::Values, asked, size, true);
    return std::nullopt;
  }
  // A parameter met again on its own chain (recursion) adds no value of its own.
  if (open.count(asked)) {
    visit(Question::Values, asked, size, true);
    return std::set<int64_t>{};
  }
  visit(Question::Values, asked, size, false);
  const KeptKey key{function, index, optionDefaults_ != nullptr};
  if (const auto k = keptValues_.find(key); k != keptValues_.end() && size + k->second.height <= kMaxParameterChain &&
                                             std::none_of(k->second.trace.visited.begin(), k->second.trace.visited.end(),
                                                          [&](const auto& v) { return open.count(v) > 0; })) {
    replay(Question::Values, k->second, size);
    return k->second.values;
  }
  Trace trace;
  trace.deepest = size;
  traces_.push_back(&trace);
  open.insert(asked);
  const std::optional<std::set<int64_t>> values = [&]() -> std::optional<std::set<int64_t>> {
    const std::set<std::string>& live = reachable();
    std::set<int64_t> out;
    bool any = false;
    for (size_t i : callsOf(function)) {
      const HostSummary::Call& c = calls_[i];
      if (!live.empty() && !live.count(c.caller)) continue;
      if (index >= static_cast<int>(c.args.size())) return std::nullopt;
      auto v = valuesOf(c.args[static_cast<size_t>(index)], &c, open);
      if (!v) return std::nullopt;
      out.insert(v->begin(), v->end());
      any = true;
    }
    if (!any) return std::nullopt;  // called from nowhere the program shows: from outside it
    return out;
  }();
  open.erase(asked);
  traces_.pop_back();
  Kept answer;
  answer.values = values;
  remember(keptValues_, key, std::move(trace), size, std::move(answer));
  return values;
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
    auto values = valuesOf(w.value, nullptr, open);
    if (!values) return std::nullopt;
    out.insert(values->begin(), values->end());
  }
  if (out.size() != 1) return std::nullopt;
  return *out.begin();
}

std::optional<int64_t> ProgramFacts::memberDefault(const std::string& record, const std::string& member,
                                                   std::vector<std::string>& defaults) const {
  std::vector<std::string> taken;
  std::optional<int64_t> value;
  {
    DefaultsTaken scope(optionDefaults_, taken);
    value = memberValue(record, member);
  }
  if (!value) return std::nullopt;
  for (std::string& t : taken)
    if (std::find(defaults.begin(), defaults.end(), t) == defaults.end()) defaults.push_back(std::move(t));
  return value;
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
