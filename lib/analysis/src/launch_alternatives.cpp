// Kernels the host chooses between at run time for one job (RunTimeChoice, records.h): the
// `kernel1` ... `kernelN` of a benchmark or teaching program, of which the first is naive on
// purpose. What lib/report/src/alternative_level.cpp makes a note of, when another alternative
// does not waste what this one does (docs/findings.md, "Levels").
//
// Two forms, each with the evidence that the alternatives do the same job:
// - the arms of one `switch` or `if`/`else if` chain on a value the host code does not fix
//   before run time, each calling a wrapper (`softmax_forward1(out, inp, N, C, block_size)`,
//   through up to kCallerDepth callers) or launching a kernel; two arms are alternatives when
//   the calls they make pass the same arguments (the shorter list, casts aside, appears in
//   order in the longer, with a pointer among them) and the called names differ only by
//   numbers or variant words (jobWords below);
// - the kernels one launch's function pointer can hold (assigned in the cases of a loop over
//   all of them, or taken from a table `kernels[k]`), whose names differ only so;
// - variants one host function runs in turn on the same data (findVariantsRunInTurn): direct
//   launches of different kernels with the same arguments and the same grid and block, whose
//   names differ by a variant word (`transposeNaive`, `transposeCoalesced`): nothing chooses,
//   the program times or checks each. Numbers alone do not make variants here: `step1`,
//   `step2` launched in turn on the same data are stages of one computation.
// A `switch (op)` over `add` and `mul` passes the first test and fails the second: the names
// say the jobs differ. Instantiations of one template are never alternatives of each other:
// they share their code, and what tells them apart is a template argument.
#include <clang/AST/Stmt.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "analysis_policy.h"
#include "coalesce/records/kernel_names.h"
#include "launch_collector.h"

namespace coalesce::analysis {

using namespace clang;
using kernel_names::isNumber;
using kernel_names::isVariantWord;
using kernel_names::jobWords;
using kernel_names::sameJobName;
using kernel_names::wordsOf;

namespace {

// A name's words without its numbers: what tells variants by a word apart.
std::vector<std::string> wordsWithoutNumbers(const std::string& name) {
  std::vector<std::string> out;
  for (std::string& w : wordsOf(name))
    if (!isNumber(w)) out.push_back(std::move(w));
  return out;
}

// The name a call or launch calls, without template arguments.
std::string calleeName(const CallExpr* call) {
  const FunctionDecl* fn = call->getDirectCallee();
  return fn && fn->getDeclName().isIdentifier() ? fn->getName().str() : std::string();
}

// The template a kernel instantiates, or the kernel itself: instantiations share their code.
const FunctionDecl* patternOf(const FunctionDecl* fn) {
  if (const FunctionDecl* p = fn->getTemplateInstantiationPattern()) return p->getCanonicalDecl();
  return fn->getCanonicalDecl();
}

}  // namespace

std::string LaunchCollector::argumentText(const Expr* e) const {
  e = e->IgnoreParenCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) return ref->getDecl()->getNameAsString();
  return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), sm_, lang_).str();
}

// Whether the shorter call's arguments appear, in order, among the longer's (the same
// expressions, casts aside), with a pointer among them: the data both work on.
bool LaunchCollector::sameArguments(const CallExpr* a, const CallExpr* b) const {
  if (a->getNumArgs() > b->getNumArgs()) std::swap(a, b);
  bool pointer = false;
  unsigned j = 0;
  for (unsigned i = 0; i < a->getNumArgs(); ++i) {
    const std::string text = argumentText(a->getArg(i));
    while (j < b->getNumArgs() && argumentText(b->getArg(j)) != text) ++j;
    if (j == b->getNumArgs() || text.empty()) return false;
    pointer = pointer || a->getArg(i)->IgnoreParenCasts()->getType()->isPointerType();
    ++j;
  }
  return pointer;
}

// The arms of selections that `s` (a launch, or a call leading to one) sits in inside `fn`,
// then those its call sites sit in, up to `depth` callers: a `switch` case (the label that
// governs it) or a branch of an `if`/`else if` chain (counted from the chain's first `if`),
// on a value the host code does not fix before run time.
void LaunchCollector::armsAround(const Stmt* s, const FunctionDecl* fn, int depth, std::vector<ArmOf>& out) {
  if (!fn || !fn->getBody()) return;
  const ParentMap& parents = parentsOf(fn);
  const Stmt* below = nullptr;
  for (const Stmt *child = s, *parent = parents.getParent(s); parent;
       below = child, child = parent, parent = parents.getParent(parent)) {
    if (const auto* ifs = dyn_cast<IfStmt>(parent)) {
      const bool inElse = child == ifs->getElse();
      if (ifs->isConstexpr() || (child != ifs->getThen() && !inElse)) continue;
      if (inElse && isa<IfStmt>(child)) continue;  // the chain's next `if`: counted there
      const IfStmt* top = ifs;
      int arm = inElse ? 1 : 0;
      for (const auto* up = dyn_cast_or_null<IfStmt>(parents.getParent(top)); up && up->getElse() == top;
           up = dyn_cast_or_null<IfStmt>(parents.getParent(top))) {
        top = up;
        ++arm;
      }
      if (values_.constantOf(top->getCond())) continue;  // decided before the program runs
      out.push_back({top, arm, s});
      continue;
    }
    const auto* sw = dyn_cast<SwitchStmt>(parent);
    const auto* body = sw ? dyn_cast_or_null<CompoundStmt>(sw->getBody()) : nullptr;
    if (!body || child != body || !below || !sw->getCond() || values_.constantOf(sw->getCond())) continue;
    int label = -1, labels = 0;
    for (const Stmt* inBody : body->body()) {
      if (isa<SwitchCase>(inBody)) label = labels++;
      if (inBody == below) break;
    }
    if (label >= 0) out.push_back({sw, label, s});
  }
  if (depth <= 0) return;
  auto sites = callsOf_.find(fn->getCanonicalDecl());
  if (sites == callsOf_.end()) return;
  for (size_t c = 0; c < sites->second.size() && c < kMaxCallSites; ++c)
    if (sites->second[c].caller != fn) armsAround(sites->second[c].call, sites->second[c].caller, depth - 1, out);
}

std::string LaunchCollector::selectorText(const Stmt* selector) const {
  const Expr* cond = nullptr;
  if (const auto* sw = dyn_cast<SwitchStmt>(selector)) cond = sw->getCond();
  else if (const auto* ifs = dyn_cast<IfStmt>(selector)) cond = ifs->getCond();
  if (!cond) return "a run-time value";
  cond = cond->IgnoreParenImpCasts();
  // `if (kernel_num == 1)`: the variable compared; `if (pitch % 4 == 0)`, where neither side
  // is one, the whole test (its constant side alone, `0`, said nothing).
  if (const auto* b = dyn_cast<BinaryOperator>(cond); b && b->isComparisonOp()) {
    if (isa<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts())) cond = b->getLHS()->IgnoreParenImpCasts();
    else if (isa<DeclRefExpr>(b->getRHS()->IgnoreParenImpCasts())) cond = b->getRHS()->IgnoreParenImpCasts();
  }
  const std::string text = argumentText(cond);
  return text.empty() || text.size() > 60 ? "a run-time value" : "`" + text + "`";
}

// After resolveLaunches: every kernel's place among alternatives of one job (`alternatives`).
void LaunchCollector::findAlternatives() {
  struct Arm {
    std::vector<const CallExpr*> entries;        // the calls the arm makes towards its launches
    std::vector<const FunctionDecl*> kernels;    // canonical
  };
  std::map<const Stmt*, std::map<int, Arm>> bySelector;
  std::vector<const Stmt*> selectors;  // in the order met
  for (const PendingLaunch& p : pendingLaunches_) {
    const auto* direct = dyn_cast<DeclRefExpr>(p.callee->IgnoreParenCasts());
    const auto* kernel = direct ? dyn_cast<FunctionDecl>(direct->getDecl()) : nullptr;
    if (kernel) {
      if (!kernel->hasAttr<CUDAGlobalAttr>()) continue;
      std::vector<ArmOf> arms;
      armsAround(p.call, p.holder, kCallerDepth, arms);
      for (const ArmOf& a : arms) {
        const auto* entry = dyn_cast<CallExpr>(a.entry);
        if (!entry) continue;
        auto [it, inserted] = bySelector.try_emplace(a.selector);
        if (inserted) selectors.push_back(a.selector);
        Arm& arm = it->second[a.arm];
        if (std::find(arm.entries.begin(), arm.entries.end(), entry) == arm.entries.end()) arm.entries.push_back(entry);
        if (std::find(arm.kernels.begin(), arm.kernels.end(), kernel->getCanonicalDecl()) == arm.kernels.end())
          arm.kernels.push_back(kernel->getCanonicalDecl());
      }
      continue;
    }
    // A function pointer: each kernel it can hold is an arm (the cases that assign it, the
    // entries of its table), all through this one launch.
    std::vector<const FunctionDecl*> held;
    for (const HostEnv* env : environmentsOf(p.holder, kCallerDepth))
      for (const FunctionDecl* k : values_.kernelsOf(p.callee, env))
        if (std::find(held.begin(), held.end(), k->getCanonicalDecl()) == held.end()) held.push_back(k->getCanonicalDecl());
    if (held.size() < 2) continue;
    const auto* table = dyn_cast<ArraySubscriptExpr>(p.callee->IgnoreParenCasts());
    const auto* tableRef = table ? dyn_cast<DeclRefExpr>(table->getBase()->IgnoreParenImpCasts()) : nullptr;
    const std::string name = direct ? direct->getDecl()->getNameAsString() : std::string();
    for (const FunctionDecl* k : held) {
      if (alternatives.count(k)) continue;
      Alternatives alt;
      alt.selector = tableRef   ? "the kernel table `" + tableRef->getDecl()->getNameAsString() + "`"
                     : name.empty() ? std::string("a function pointer")
                                    : "the function pointer `" + name + "`";
      alt.where = locationText(p.call->getBeginLoc());
      alt.evidence = "launched through one function pointer with the same arguments, and their names differ only "
                     "by a number or a variant word";
      int index = 0;
      for (const FunctionDecl* other : held) {
        ++index;
        if (other == k) alt.arm = index;
        if (other == k || patternOf(other) == patternOf(k) || !sameJobName(k->getNameAsString(), other->getNameAsString()))
          continue;
        alt.others.push_back({index, other->getNameAsString(), {other}});
      }
      if (alt.others.empty()) continue;
      alt.arms = static_cast<int>(alt.others.size()) + 1;
      alternatives[k] = std::move(alt);
    }
  }
  for (const Stmt* selector : selectors) {
    const std::map<int, Arm>& arms = bySelector[selector];
    if (arms.size() < 2) continue;
    // Arms a and b do the same job when some call of each passes the same arguments under
    // names that differ only by numbers or variant words.
    const auto sameJob = [&](const Arm& a, const Arm& b) {
      for (const CallExpr* x : a.entries)
        for (const CallExpr* y : b.entries)
          if (sameJobName(calleeName(x), calleeName(y)) && sameArguments(x, y)) return true;
      return false;
    };
    for (const auto& [index, arm] : arms)
      for (const FunctionDecl* k : arm.kernels) {
        Alternatives alt;
        alt.selector = selectorText(selector);
        alt.where = locationText(selector->getBeginLoc());
        alt.arm = index + 1;
        alt.evidence = "their calls pass the same arguments, and the names called differ only by a number or a "
                       "variant word";
        for (const auto& [otherIndex, other] : arms) {
          if (otherIndex == index || !sameJob(arm, other)) continue;
          // An arm that launches this kernel too, or another instantiation of its template,
          // is no alternative to it.
          if (std::any_of(other.kernels.begin(), other.kernels.end(),
                          [&](const FunctionDecl* o) { return patternOf(o) == patternOf(k); }))
            continue;
          alt.others.push_back({otherIndex + 1, calleeName(other.entries.front()), other.kernels});
        }
        if (alt.others.empty()) continue;
        alt.arms = static_cast<int>(alt.others.size()) + 1;
        // A kernel met in several selections keeps the one with the most alternatives.
        auto known = alternatives.find(k);
        if (known == alternatives.end() || known->second.others.size() < alt.others.size()) alternatives[k] = std::move(alt);
      }
  }
  findVariantsRunInTurn();
}

// The third form: variants a host function launches one after the other on the same data. A
// kernel already among alternatives chosen at run time keeps that choice.
void LaunchCollector::findVariantsRunInTurn() {
  // The branch of every `if` a launch sits in inside its function, decided at run time or not
  // (`if (USE_FAST) fast<<<>>>(); else basic<<<>>>();` runs one of them); a `switch` around it
  // is a selection the first two forms judge.
  struct Around {
    std::vector<std::pair<const Stmt*, const Stmt*>> ifs;  // the `if`, the branch leading down
    bool inSwitch = false;
  };
  struct Direct {
    const PendingLaunch* launch;
    const CallExpr* call;
    const FunctionDecl* kernel;  // canonical
    Around around;               // read once per launch, asked for every pair
  };
  const auto around = [&](const PendingLaunch& p) {
    Around out;
    const ParentMap& parents = parentsOf(p.holder);
    for (const Stmt *child = p.call, *parent = parents.getParent(p.call); parent;
         child = parent, parent = parents.getParent(parent)) {
      if (isa<IfStmt>(parent)) out.ifs.push_back({parent, child});
      out.inSwitch = out.inSwitch || isa<SwitchStmt>(parent);
    }
    return out;
  };
  std::map<const FunctionDecl*, std::vector<Direct>> byHolder;
  std::vector<const FunctionDecl*> holders;  // in the order met
  for (const PendingLaunch& p : pendingLaunches_) {
    const auto* call = dyn_cast<CUDAKernelCallExpr>(p.call);
    const auto* direct = dyn_cast<DeclRefExpr>(p.callee->IgnoreParenCasts());
    const auto* kernel = direct ? dyn_cast<FunctionDecl>(direct->getDecl()) : nullptr;
    if (!call || !kernel || !kernel->hasAttr<CUDAGlobalAttr>() || !p.holder || !p.grid || !p.block) continue;
    auto [it, inserted] = byHolder.try_emplace(p.holder);
    if (inserted) holders.push_back(p.holder);
    it->second.push_back({&p, call, kernel->getCanonicalDecl(), around(p)});
  }
  // The same data and the same shape: every argument the same expression, a pointer among
  // them, the same grid and block expressions, and no branch that runs one and not the other.
  const auto sameLaunch = [&](const Direct& a, const Direct& b) {
    if (a.call->getNumArgs() != b.call->getNumArgs() || !sameArguments(a.call, b.call)) return false;
    if (argumentText(a.launch->grid) != argumentText(b.launch->grid) ||
        argumentText(a.launch->block) != argumentText(b.launch->block))
      return false;
    if (a.around.inSwitch || b.around.inSwitch) return false;
    for (const auto& [ifStmt, branch] : a.around.ifs)
      for (const auto& other : b.around.ifs)
        if (other.first == ifStmt && other.second != branch) return false;
    return true;
  };
  for (const FunctionDecl* holder : holders) {
    const std::vector<Direct>& inHolder = byHolder[holder];
    for (const Direct& mine : inHolder) {
      const FunctionDecl* k = mine.kernel;
      if (alternatives.count(k)) continue;
      const std::string name = k->getNameAsString();
      // The variants in the order of their first launch, this kernel's among them.
      std::vector<const FunctionDecl*> variants;
      std::vector<std::string> calls;
      for (const Direct& other : inHolder) {
        const FunctionDecl* o = other.kernel;
        if (std::find(variants.begin(), variants.end(), o) != variants.end()) continue;
        if (o != k) {
          const std::string otherName = o->getNameAsString();
          if (patternOf(o) == patternOf(k) || !sameJobName(name, otherName) ||
              wordsWithoutNumbers(name) == wordsWithoutNumbers(otherName) || !sameLaunch(mine, other))
            continue;
        }
        variants.push_back(o);
        calls.push_back(o->getNameAsString());
      }
      if (variants.size() < 2) continue;
      Alternatives alt;
      alt.where = locationText(mine.call->getBeginLoc());
      alt.evidence = "launched one after the other in `" + holder->getNameAsString() +
                     "` with the same arguments, grid and block, and their names differ only by a variant word";
      alt.arms = static_cast<int>(variants.size());
      for (size_t i = 0; i < variants.size(); ++i) {
        if (variants[i] == k) {
          alt.arm = static_cast<int>(i) + 1;
          continue;
        }
        alt.others.push_back({static_cast<int>(i) + 1, calls[i], {variants[i]}});
      }
      alternatives[k] = std::move(alt);  // selector empty: nothing chooses
    }
  }
}

}  // namespace coalesce::analysis
