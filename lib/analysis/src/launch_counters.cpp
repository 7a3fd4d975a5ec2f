// A launch inside a host loop that passes the loop's counter to the kernel (`for (int s = 1; s <=
// 32; s++) stride<<<g, b>>>(a, s)`, the NVIDIA blog's coalescing benchmark): the kernel runs
// with every value the counter takes, and its accesses' figures depend on it. Until session 26
// the launch took the counter's first value (host_values.cpp, countsLoopAround), the one value
// of the sweep where the stride kernel is coalesced; now it is one launch per value, at most
// kMaxCounterLaunches of them evenly spaced, each standing for its share of the loop's runs, so
// that the figures are the launches' mix (when the runs are known) or the worst of them
// (record_builder.cpp), as for the several launches a program makes of a kernel. Only a loop
// whose values the code fixes: its start, bound and step constants, its body never writing the
// counter; else the first value, as before.
#include <clang/AST/Expr.h>
#include <clang/AST/Stmt.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "analysis_policy.h"
#include "launch_collector.h"
#include "loop_comparison.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// The first reference to `var` in `e`, or null.
const DeclRefExpr* referenceTo(const Stmt* e, const VarDecl* var) {
  if (!e) return nullptr;
  if (const auto* r = dyn_cast<DeclRefExpr>(e); r && r->getDecl() == var) return r;
  for (const Stmt* c : e->children())
    if (const DeclRefExpr* r = referenceTo(c, var)) return r;
  return nullptr;
}

}  // namespace

std::optional<LaunchCollector::CounterSweep> LaunchCollector::counterSweep(const PendingLaunch& p,
                                                                          const std::vector<const ForStmt*>& around) {
  // The innermost loop whose counter an integer argument reads.
  for (auto loop = around.rbegin(); loop != around.rend(); ++loop) {
    const ForStmt* f = *loop;
    const VarDecl* var = nullptr;
    std::optional<int64_t> start;
    if (const auto* d = dyn_cast_or_null<DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
      var = dyn_cast<VarDecl>(d->getSingleDecl());
      if (var && var->getInit()) start = values_.constantOf(var->getInit());
    }
    if (!var || !start || !f->getCond() || !f->getInc()) continue;
    const DeclRefExpr* use = nullptr;
    for (const Expr* arg : p.args)
      if (arg->getType()->isIntegralOrEnumerationType() && (use = referenceTo(arg, var))) break;
    // Read by an argument, stepped by the loop alone (its body writes it nowhere).
    if (!use || !values_.countsLoopAround(var, use)) continue;
    const std::optional<HostValues::CounterLoop> counted = HostValues::counterLoop(f);
    if (!counted || counted->var != var) return std::nullopt;  // the counter's first value, as before
    const std::optional<int64_t> bound = values_.constantOf(counted->bound);
    const BinaryOperatorKind step = counted->step;
    const std::optional<int64_t> by = counted->by ? values_.constantOf(counted->by) : std::optional<int64_t>(counted->unit);
    if (!bound || !by) return std::nullopt;
    const auto holds = [&](int64_t v) { return loopConditionHolds(counted->compare, v, *bound); };
    const auto next = [&](int64_t v) -> std::optional<int64_t> {
      switch (step) {
        case BO_AddAssign: return v + *by;
        case BO_SubAssign: return v - *by;
        case BO_MulAssign: return std::abs(v) < (int64_t{1} << 40) && std::abs(*by) < (int64_t{1} << 20) ? std::optional<int64_t>(v * *by) : std::nullopt;
        case BO_DivAssign: return *by ? std::optional<int64_t>(v / *by) : std::nullopt;
        case BO_ShlAssign: return *by >= 0 && *by < 32 && std::abs(v) < (int64_t{1} << 40) ? std::optional<int64_t>(v << *by) : std::nullopt;
        case BO_ShrAssign: return *by >= 0 && *by < 63 ? std::optional<int64_t>(v >> *by) : std::nullopt;
        default: return std::nullopt;
      }
    };
    std::vector<int64_t> values;
    for (std::optional<int64_t> v = start; v && holds(*v); v = next(*v)) {
      // A counter that stops moving, or more values than listed: the first value, as before.
      if (values.size() >= kMaxCounterValues || (!values.empty() && values.back() == *v)) return std::nullopt;
      values.push_back(*v);
    }
    if (values.size() < 2) return std::nullopt;
    CounterSweep sweep;
    sweep.counter = var;
    sweep.where = locationText(f->getBeginLoc());
    sweep.count = values.size();
    // Evenly spaced, the first and the last among them; each stands for an equal share.
    const size_t taken = std::min(values.size(), kMaxCounterLaunches);
    for (size_t k = 0; k < taken; ++k)
      sweep.taken.push_back(values[taken == 1 ? 0 : k * (values.size() - 1) / (taken - 1)]);
    return sweep;
  }
  return std::nullopt;
}

void LaunchCollector::sweepCounter(const CounterSweep& sweep, std::vector<const HostEnv*>& envs,
                                   std::vector<std::optional<double>>& envRuns) {
  std::vector<const HostEnv*> swept;
  std::vector<std::optional<double>> sweptRuns;
  const double share = 1.0 / static_cast<double>(sweep.taken.size());
  for (size_t e = 0; e < envs.size(); ++e)
    for (int64_t value : sweep.taken) {
      HostEnv env = envs[e] ? *envs[e] : HostEnv{};
      env.facts[sweep.counter] = value;
      env.via += ", `" + sweep.counter->getNameAsString() + "` " + std::to_string(value) + " (one of the " +
                 std::to_string(sweep.count) + " values of the loop at " + sweep.where +
                 (sweep.taken.size() < sweep.count ? ", " + std::to_string(sweep.taken.size()) + " of them evenly spaced"
                                                   : std::string()) +
                 ")";
      envs_.push_back(std::move(env));
      swept.push_back(&envs_.back());
      sweptRuns.push_back(envRuns[e] ? std::optional<double>(*envRuns[e] * share) : std::nullopt);
    }
  envs = std::move(swept);
  envRuns = std::move(sweptRuns);
}

}  // namespace coalesce::analysis
