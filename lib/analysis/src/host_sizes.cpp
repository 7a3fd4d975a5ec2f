// The program's one default for the sizes its host code does not fix, for a finding's cost
// only: a launch's grid read as HostValues reads constants, with each unknown leaf (a global
// the input sets, `atoi(argv[1])`, a parameter no call site fixes, a member of a struct
// filled at run time) taken as kAssumedRuntimeValue, the value the kernels' own unknown
// scalars take in the figures. Rodinia gaussian's `Fan1` (Size / 512 blocks of 512) and
// `Fan2` ((Size / 4)^2 blocks of 4x4) then weigh one thread per row against one per element,
// not 262,144 threads each (docs/findings.md, "requests per launch"; launch_requests.cpp).
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "analysis_policy.h"
#include "host_values.h"
#include "source_text.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// Grids larger than this under the defaults (a product of several sizes) are not believed.
constexpr int64_t kMaxDefaultedGridBlocks = int64_t{1} << 40;

// Whether `var` is a local whose address the host hands to a CUDA call (`cudaDeviceGetAttribute(&sms,
// ...)`, `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, ...)`): a property of the
// GPU, not a size of the input.
bool queriedFromDevice(const VarDecl* var) {
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!fn || !fn->getBody()) return false;
  bool found = false;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || found) return;
    if (const auto* call = dyn_cast<CallExpr>(s))
      if (const FunctionDecl* callee = call->getDirectCallee();
          callee && callee->getDeclName().isIdentifier() && callee->getName().starts_with("cuda"))
        for (const Expr* a : call->arguments())
          if (const auto* u = dyn_cast<UnaryOperator>(a->IgnoreParenImpCasts()); u && u->getOpcode() == UO_AddrOf)
            if (const auto* r = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParenImpCasts()); r && r->getDecl() == var)
              found = true;
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(fn->getBody());
  return found;
}

}  // namespace

bool HostValues::parsesInput(const Expr* e) {
  const auto* call = dyn_cast<CallExpr>(e->IgnoreParenImpCasts());
  const FunctionDecl* fn = call ? call->getDirectCallee() : nullptr;
  if (!fn || !fn->getDeclName().isIdentifier()) return false;
  static const char* const kParsers[] = {"atoi",  "atol",  "atoll", "strtol", "strtoul", "strtoll", "strtoull",
                                         "stoi",  "stol",  "stoll", "stoul",  "stoull",  "getCmdLineArgumentInt"};
  return std::any_of(std::begin(kParsers), std::end(kParsers), [&](const char* p) { return fn->getName() == p; });
}

std::string HostValues::leafText(const Expr* e) const {
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) return ref->getDecl()->getNameAsString();
  const SourceManager& sm = ctx_.getSourceManager();
  const CharSourceRange range = CharSourceRange::getTokenRange(sm.getExpansionRange(e->getSourceRange()).getAsRange());
  std::string text = oneLine(Lexer::getSourceText(range, sm, ctx_.getLangOpts()));
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text.empty() ? std::string("a runtime value") : text;
}

// A leaf the code does not fix, in gridWithDefaults' mode: the default, its text kept for the
// basis sentence. Anything else (a device property, a call whose result the code does not
// show, an expression of a kind not read) voids the whole grid: it keeps the old default.
std::optional<int64_t> HostValues::defaultedLeaf(const Expr* e) {
  if (!defaults_ || defaults_->unfollowable) return std::nullopt;
  e = e->IgnoreParenImpCasts();
  bool leaf = false;
  if (!e->getType()->isIntegralOrEnumerationType()) {
    leaf = false;
  } else if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const auto* var = dyn_cast<VarDecl>(ref->getDecl());
    leaf = var && !queriedFromDevice(var);
  } else if (const auto* m = dyn_cast<MemberExpr>(e)) {
    const auto* field = dyn_cast<FieldDecl>(m->getMemberDecl());
    const RecordDecl* record = field ? field->getParent() : nullptr;
    leaf = field && !(record && record->getName() == "cudaDeviceProp");  // multiProcessorCount: the GPU's
  } else if (isa<CallExpr>(e)) {
    leaf = parsesInput(e);
  } else if (isa<ArraySubscriptExpr>(e)) {
    leaf = true;  // sizes[0], dims[1]: read from the input
  } else if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref) {
    leaf = true;  // *n of a size passed by pointer
  }
  if (!leaf) {
    defaults_->unfollowable = true;
    return std::nullopt;
  }
  const std::string text = leafText(e);
  if (std::find(defaults_->leaves.begin(), defaults_->leaves.end(), text) == defaults_->leaves.end())
    defaults_->leaves.push_back(text);
  return kAssumedRuntimeValue;
}

std::optional<double> HostValues::realOf(const Expr* e, const HostEnv* env, int depth) {
  const auto fail = [&]() -> std::optional<double> {
    if (defaults_) defaults_->unfollowable = true;
    return std::nullopt;
  };
  if (!e || depth > kMaxDepth || e->isValueDependent()) return fail();
  e = e->IgnoreParens();
  const auto integral = [&](const Expr* x) -> std::optional<double> {
    auto v = constantOf(x, env, depth + 1);
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
  };
  if (e->getType()->isIntegralOrEnumerationType()) return integral(e);
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    const Expr* sub = c->getSubExpr();
    if (sub->getType()->isIntegralOrEnumerationType()) return integral(sub);
    if (sub->getType()->isRealFloatingType()) return realOf(sub, env, depth + 1);
    return fail();
  }
  if (const auto* f = dyn_cast<FloatingLiteral>(e)) return f->getValueAsApproximateDouble();
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Minus) {
    auto v = realOf(u->getSubExpr(), env, depth + 1);
    return v ? std::optional<double>(-*v) : std::nullopt;
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e)) {
    auto l = realOf(b->getLHS(), env, depth + 1);
    auto r = l ? realOf(b->getRHS(), env, depth + 1) : std::nullopt;
    if (!r) return std::nullopt;
    switch (b->getOpcode()) {
      case BO_Add: return *l + *r;
      case BO_Sub: return *l - *r;
      case BO_Mul: return *l * *r;
      case BO_Div: return *r != 0 ? std::optional<double>(*l / *r) : fail();
      default: return fail();
    }
  }
  if (const auto* c = dyn_cast<ConditionalOperator>(e)) {
    auto cond = constantOf(c->getCond(), env, depth + 1);
    return cond ? realOf(*cond ? c->getTrueExpr() : c->getFalseExpr(), env, depth + 1) : std::nullopt;
  }
  // ceil(n / 256.0), std::floor, sqrtf: by name, one argument.
  if (const auto* call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl* fn = call->getDirectCallee();
    if (!fn || !fn->getDeclName().isIdentifier() || call->getNumArgs() != 1) return fail();
    const StringRef name = fn->getName();
    auto v = realOf(call->getArg(0), env, depth + 1);
    if (!v) return std::nullopt;
    if (name == "ceil" || name == "ceilf") return std::ceil(*v);
    if (name == "floor" || name == "floorf") return std::floor(*v);
    if ((name == "sqrt" || name == "sqrtf") && *v >= 0) return std::sqrt(*v);
    return fail();
  }
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    if (const auto* arg = argumentOf(e, env); arg && !isReassigned(ref->getDecl()))
      return realOf(arg->expr, arg->env, depth + 1);
    if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
        var && var->isLocalVarDecl() && var->getInit() && !isReassigned(var))
      return realOf(var->getInit(), env, depth + 1);
  }
  return fail();
}

std::optional<HostValues::CounterLoop> HostValues::counterLoop(const ForStmt* loop) {
  const auto varOf = [](const Expr* e) -> const VarDecl* {
    const auto* r = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
    return r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
  };
  if (!loop->getCond() || !loop->getInc()) return std::nullopt;
  CounterLoop out;
  if (const auto* d = dyn_cast_or_null<DeclStmt>(loop->getInit()); d && d->isSingleDecl()) {
    out.var = dyn_cast<VarDecl>(d->getSingleDecl());
    if (out.var) out.start = out.var->getInit();
  } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(loop->getInit()); b && b->getOpcode() == BO_Assign) {
    out.var = varOf(b->getLHS());
    out.start = b->getRHS();
  }
  const auto* cond = dyn_cast<BinaryOperator>(loop->getCond()->IgnoreParenImpCasts());
  if (!out.var || !cond || varOf(cond->getLHS()) != out.var) return std::nullopt;
  out.compare = cond->getOpcode();
  out.bound = cond->getRHS();
  const Expr* inc = loop->getInc()->IgnoreParenImpCasts();
  if (const auto* u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && varOf(u->getSubExpr()) == out.var)
    out.unit = u->isIncrementOp() ? 1 : -1;
  else if (const auto* c = dyn_cast<CompoundAssignOperator>(inc); c && varOf(c->getLHS()) == out.var)
    out.step = c->getOpcode(), out.by = c->getRHS();
  else
    return std::nullopt;
  return out;
}

// `for (i = a; i < b; i += c)` (and `<=`, `>`, `>=`, `++`, `--`, `-=`), read under the defaults:
// the counter at its middle iteration, start + step x floor((trips - 1) / 2); nothing when the
// loop is of another form or runs no iteration.
std::optional<std::pair<const VarDecl*, int64_t>> HostValues::middleOfLoop(const ForStmt* loop, const HostEnv* env) {
  const std::optional<CounterLoop> counter = counterLoop(loop);
  if (!counter) return std::nullopt;
  const VarDecl* var = counter->var;
  const std::optional<int64_t> start = counter->start ? constantOf(counter->start, env) : std::nullopt;
  if (!start) return std::nullopt;
  const std::optional<int64_t> bound = constantOf(counter->bound, env);
  std::optional<int64_t> step;
  if (!counter->by) {
    step = counter->unit;
  } else if (auto by = constantOf(counter->by, env)) {
    step = counter->step == BO_AddAssign   ? std::optional<int64_t>(*by)
           : counter->step == BO_SubAssign ? std::optional<int64_t>(-*by)
                                           : std::nullopt;
  }
  if (!bound || !step || *step == 0) return std::nullopt;
  int64_t span = 0;  // how far the counter moves while the condition holds, counted from 1
  switch (counter->compare) {
    case BO_LT: span = *step > 0 ? *bound - *start : 0; break;
    case BO_LE: span = *step > 0 ? *bound - *start + 1 : 0; break;
    case BO_GT: span = *step < 0 ? *start - *bound : 0; break;
    case BO_GE: span = *step < 0 ? *start - *bound + 1 : 0; break;
    default: return std::nullopt;
  }
  if (span <= 0) return std::nullopt;
  const int64_t by = std::abs(*step);
  const int64_t trips = (span + by - 1) / by;
  return std::make_pair(var, *start + *step * ((trips - 1) / 2));
}

namespace {
// Whether the statements between `s` and its function's body hold a loop (its writes may run
// any number of times).
bool inLoop(FunctionParents& parents, const Stmt* s, const FunctionDecl* fn) {
  for (const Stmt* at = s;;) {
    const Stmt* parent = parents.parentOf(at, fn);
    if (!parent) return false;
    if (isa<ForStmt>(parent) || isa<WhileStmt>(parent) || isa<DoStmt>(parent) || isa<CXXForRangeStmt>(parent))
      return true;
    at = parent;
  }
}
}  // namespace

// -1: an `if` around `s` takes the other arm under the defaults; 1: every `if` around it takes
// its arm; 0: one cannot be read. A condition's own leaves join the answer's (its value rests
// on them); one that voids it (a device property) leaves that `if` unread, the grid intact.
static int armUnderDefaults(FunctionParents& parents, const Stmt* s, const FunctionDecl* fn,
                            const std::function<std::optional<int64_t>(const Expr*)>& read) {
  int state = 1;
  const Stmt* child = s;
  for (;;) {
    const Stmt* parent = parents.parentOf(child, fn);
    if (!parent) return state;
    if (const auto* i = dyn_cast<IfStmt>(parent); i && (child == i->getThen() || child == i->getElse())) {
      const auto v = read(i->getCond());
      if (!v) state = 0;
      else if ((*v != 0) != (child == i->getThen())) return -1;
    } else if (isa<SwitchStmt>(parent) || isa<ConditionalOperator>(parent)) {
      state = 0;
    }
    child = parent;
  }
}

bool HostValues::deadUnderDefaults(const Stmt* s, const FunctionDecl* fn, const HostEnv* env) {
  // A write in a loop carries its value from one iteration to the next (srad_v1's `while
  // (blocks2.x != 0)` halving its reduction's grid): no one arm is the run's.
  if (!defaults_ || !s || !fn || inLoop(parents_, s, fn)) return false;
  SizeDefaults* const outer = defaults_;
  const auto read = [&](const Expr* cond) -> std::optional<int64_t> {
    SizeDefaults scratch;
    scratch.axesFollowed = outer->axesFollowed;
    defaults_ = &scratch;
    const auto v = constantOf(cond, env);
    defaults_ = outer;
    if (scratch.unfollowable || !v) return std::nullopt;
    for (const std::string& l : scratch.leaves)
      if (std::find(outer->leaves.begin(), outer->leaves.end(), l) == outer->leaves.end()) outer->leaves.push_back(l);
    for (const std::string& o : scratch.options)
      if (std::find(outer->options.begin(), outer->options.end(), o) == outer->options.end()) outer->options.push_back(o);
    return v;
  };
  return armUnderDefaults(parents_, s, fn, read) < 0;
}

// A local declared without a value: its plain `=` assignments before `use`, outside loops,
// taken in order where the defaults make their arms live (each read with the local at the
// value the one before gave it); nothing when one's arm cannot be read or a write is of
// another kind.
std::optional<int64_t> HostValues::assignedUnderDefaults(const VarDecl* var, const Expr* use, const HostEnv* env,
                                                         int depth) {
  const auto* fn = dyn_cast<FunctionDecl>(var->getDeclContext());
  if (!defaults_ || !fn || !fn->getBody() || depth > kMaxDepth ||
      std::find(assignedFollowed_.begin(), assignedFollowed_.end(), var) != assignedFollowed_.end())
    return std::nullopt;
  const auto hits = [&](const Expr* e) {
    const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return r && r->getDecl() == var;
  };
  std::vector<const BinaryOperator*> assignments;
  bool plain = true;
  std::function<void(const Stmt*)> scan = [&](const Stmt* s) {
    if (!s || !plain) return;
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) {
      if (b->getOpcode() != BO_Assign || inLoop(parents_, b, fn)) plain = false;
      else assignments.push_back(b);
    }
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) plain = false;
    // Passed to a non-const reference parameter: the callee may write it (isReassigned).
    if (const auto* call = dyn_cast<CallExpr>(s); call && !isa<CXXOperatorCallExpr>(call))
      if (const FunctionDecl* callee = call->getDirectCallee())
        for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
          const QualType t = callee->getParamDecl(i)->getType();
          if (t->isLValueReferenceType() && !t->getPointeeType().isConstQualified() && hits(call->getArg(i))) plain = false;
        }
    for (const Stmt* c : s->children()) scan(c);
  };
  scan(fn->getBody());
  if (!plain || assignments.empty()) return std::nullopt;
  const SourceManager& sm = ctx_.getSourceManager();
  assignedFollowed_.push_back(var);
  std::optional<int64_t> value;
  bool known = true;
  for (const BinaryOperator* b : assignments) {
    if (!sm.isBeforeInTranslationUnit(b->getBeginLoc(), use->getBeginLoc())) continue;
    SizeDefaults* const outer = defaults_;
    const auto read = [&](const Expr* cond) -> std::optional<int64_t> {
      SizeDefaults scratch;
      scratch.axesFollowed = outer->axesFollowed;
      defaults_ = &scratch;
      const auto v = constantOf(cond, env, depth + 1);
      defaults_ = outer;
      if (scratch.unfollowable || !v) return std::nullopt;
      outer->leaves.insert(outer->leaves.end(), scratch.leaves.begin(), scratch.leaves.end());
      outer->options.insert(outer->options.end(), scratch.options.begin(), scratch.options.end());
      return v;
    };
    const int arm = armUnderDefaults(parents_, b, fn, read);
    if (arm < 0) continue;
    if (arm == 0) {
      known = false;
      break;
    }
    HostEnv state;
    if (env) state = *env;
    if (value) state.facts[var] = *value;
    value = constantOf(b->getRHS(), &state, depth + 1);
    if (!value) {
      known = false;
      break;
    }
  }
  assignedFollowed_.pop_back();
  if (!known) return std::nullopt;
  // Leaves met twice (a condition and a value reading the same size) are named once.
  std::vector<std::string> unique;
  for (const std::string& l : defaults_->leaves)
    if (std::find(unique.begin(), unique.end(), l) == unique.end()) unique.push_back(l);
  defaults_->leaves = std::move(unique);
  return value;
}

bool HostValues::readUnderDefaults(const HostEnv* env, const std::vector<const ForStmt*>& around,
                                   const std::function<void(const HostEnv*)>& read, std::vector<std::string>& leaves,
                                   std::vector<std::string>& counterTexts, std::vector<std::string>& options) {
  SizeDefaults* const outer = defaults_;
  HostEnv state;
  if (env) state = *env;
  struct Counter {
    const VarDecl* var;
    int64_t value;
    std::vector<std::string> leaves;   // what its bounds took at the default
    std::vector<std::string> options;  // run-time options its bounds took at their defaults
  };
  std::vector<Counter> counters;
  for (const ForStmt* loop : around) {  // outermost first: an inner loop's bounds may read an outer counter
    SizeDefaults bounds;
    defaults_ = &bounds;
    // A counter whose bounds cannot be read stays a plain leaf.
    if (auto middle = middleOfLoop(loop, &state); middle && !bounds.unfollowable && !state.facts.count(middle->first)) {
      state.facts[middle->first] = middle->second;
      counters.push_back({middle->first, middle->second, bounds.leaves, bounds.options});
    }
  }
  SizeDefaults mode;
  defaults_ = &mode;
  read(&state);
  defaults_ = outer;
  if (mode.unfollowable) return false;
  for (const Counter& c : counters) {
    if (std::find(mode.factsRead.begin(), mode.factsRead.end(), c.var) == mode.factsRead.end()) continue;
    counterTexts.push_back("`" + c.var->getNameAsString() + "` at " + std::to_string(c.value));
    for (const std::string& l : c.leaves)
      if (std::find(mode.leaves.begin(), mode.leaves.end(), l) == mode.leaves.end()) mode.leaves.push_back(l);
    for (const std::string& o : c.options)
      if (std::find(mode.options.begin(), mode.options.end(), o) == mode.options.end()) mode.options.push_back(o);
  }
  leaves = std::move(mode.leaves);
  options = std::move(mode.options);
  return true;
}

std::optional<HostValues::DefaultedGrid> HostValues::gridWithDefaults(const Expr* e, const HostEnv* env,
                                                                      const std::vector<const ForStmt*>& around) {
  DefaultedGrid out;
  Dim3Axes axes;
  if (!readUnderDefaults(env, around, [&](const HostEnv* state) { axes = dim3AxesOf(e, state); }, out.leaves,
                         out.counters, out.options))
    return std::nullopt;
  int64_t* dims[3] = {&out.grid.x, &out.grid.y, &out.grid.z};
  int64_t volume = 1;
  for (int d = 0; d < 3; ++d) {
    // An axis below one block under the defaults (`n - 4096`, a loop counter at the default)
    // says the defaults do not fit this launch: it keeps the old default.
    if (!axes[d] || *axes[d] < 1 || *axes[d] > kMaxDefaultedGridBlocks / volume) return std::nullopt;
    *dims[d] = *axes[d];
    volume *= *axes[d];
  }
  return out;
}

std::optional<HostValues::DefaultedValue> HostValues::valueWithDefaults(const Expr* e, const HostEnv* env,
                                                                        const std::vector<const ForStmt*>& around) {
  DefaultedValue out;
  std::optional<int64_t> value;
  if (!e->getType()->isIntegralOrEnumerationType() ||
      !readUnderDefaults(env, around, [&](const HostEnv* state) { value = constantOf(e, state); }, out.leaves,
                         out.counters, out.options) ||
      !value)
    return std::nullopt;
  out.value = *value;
  return out;
}

}  // namespace coalesce::analysis
