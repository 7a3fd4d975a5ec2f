// Loops, summarised in two walks of the body: the first, silent, learns how each variable
// changes per iteration; the second records the accesses with induction variables written
// as entry + k * step (k the iteration counter, a symbol whose values lane_function.cpp
// lists per launch), geometric ones (s *= 2, s >>= 1) as a loop symbol with its update,
// and the loop's exits (condition, break, return) as the counter's condition.
#include <set>
#include <utility>

#include "interpreter.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

// Variables a statement assigns to.
void assignedVars(const Stmt* s, std::set<const VarDecl*>& out) {
  if (!s) return;
  auto target = [&](const Expr* e) {
    if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl())) out.insert(var);
  };
  if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) target(b->getLHS());
  if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) target(u->getSubExpr());
  for (const Stmt* child : s->children()) assignedVars(child, out);
}

bool mentionsAny(const ExprRef& e, const std::set<int>& ids) {
  if (e->op == Op::Symbol && ids.count(e->symbolId)) return true;
  for (const auto& a : e->args)
    if (mentionsAny(a, ids)) return true;
  return false;
}

bool containsPlaceholder(const ExprRef& e, const std::map<const VarDecl*, int>& ph) {
  if (e->op == Op::Symbol)
    for (const auto& [v, id] : ph)
      if (e->symbolId == id) return true;
  for (const auto& a : e->args)
    if (containsPlaceholder(a, ph)) return true;
  return false;
}

bool isGeometric(const ExprRef& after, int placeholderId) {
  if (after->args.size() != 2) return false;
  const bool onSelf = after->args[0]->op == Op::Symbol && after->args[0]->symbolId == placeholderId;
  const bool byConst = after->args[1]->op == Op::Const;
  return onSelf && byConst &&
         (after->op == Op::Mul || after->op == Op::Div || after->op == Op::Shl || after->op == Op::Shr);
}

}  // namespace

// `testAfter`: a do-while, whose body runs before the test.
void Interpreter::loop(const Stmt* init, const Expr* cond, const Expr* inc, const Stmt* body, const Stmt* whole,
                       bool testAfter) {
  if (init) walk(init);
  std::set<const VarDecl*> modified;
  assignedVars(body, modified);
  if (cond) assignedVars(cond, modified);
  if (inc) assignedVars(inc, modified);
  const Env entry = state_.env;
  const std::string loopText = loopHeaderText(whole);
  // The loop's id: events inside it (and its own condition) carry it, and so do the
  // symbols of its variables, so that rules can tell which loop a value or an access is of.
  const int loopId = state_.nextLoopId++;
  state_.loops.push_back(loopId);

  // Pass 1: placeholders (pointers keep their root), silently.
  std::map<const VarDecl*, int> placeholder;
  for (const VarDecl* v : modified) {
    SymbolInfo info;
    info.name = v->getNameAsString();
    info.loop = loopId;
    placeholder[v] = symbols_.add(info);
    auto it = entry.find(v);
    if (it != entry.end() && it->second.isPointer())
      state_.env[v] = Value{nullptr, it->second.root, symbol(placeholder[v])};
    else
      state_.env[v] = intValue(symbol(placeholder[v]));
  }
  const bool wasRecording = state_.recording;
  state_.recording = false;
  // The values in registers before the loop that one walk of the body leaves in registers
  // on every path are there at the start of every iteration and after the loop
  // (register_forwarding.h): a hash's `b[i] ^= t[i + 8 * j]` chain over j reloads nothing.
  const AvailableValues beforeLoop = state_.available;
  const std::vector<ExprRef> entryGuards = state_.guards;
  state_.loopExits.emplace_back();
  if (cond && !testAfter) eval(cond);
  walk(body);
  if (cond && testAfter) eval(cond);
  if (inc) eval(inc);
  state_.loopExits.pop_back();
  state_.recording = wasRecording;
  const Env afterOne = state_.env;
  state_.env = entry;
  AvailableValues carried = beforeLoop.survivingLoop(state_.available, entryGuards);
  state_.available = carried;
  const size_t firstEvent = events_.accesses.size();

  SymbolInfo counterInfo;
  counterInfo.name = "iteration";
  counterInfo.kind = SymbolInfo::Kind::LoopVar;
  counterInfo.loopText = loopText;
  counterInfo.testAfter = testAfter;
  counterInfo.loop = loopId;
  const int counter = symbols_.add(counterInfo);
  // step = after - placeholder, as a clean affine expression (the placeholder cancels).
  auto inductionStep = [&](const ExprRef& after, int ph) -> std::optional<ExprRef> {
    auto form = linearize(binary(Op::Sub, after, symbol(ph)));
    if (!form) return std::nullopt;
    for (const AffineTerm& t : form->terms)
      if (containsPlaceholder(t.leaf, placeholder)) return std::nullopt;
    ExprRef step = constant(form->constant);
    for (const AffineTerm& t : form->terms) step = binary(Op::Add, step, binary(Op::Mul, t.leaf, constant(t.coef)));
    if (!isUniform(step)) return std::nullopt;
    return step;
  };
  std::vector<int> geometricIds;
  std::map<const VarDecl*, int> geometricOf;  // geometric induction variables, by symbol
  std::map<const VarDecl*, ExprRef> steps;  // arithmetic induction variables
  for (const VarDecl* v : modified) {
    auto itEntry = entry.find(v);
    auto itAfter = afterOne.find(v);
    const int ph = placeholder[v];
    Value entryValue = itEntry != entry.end() ? itEntry->second : intValue(leaf(Op::Varying));
    if (itAfter == afterOne.end()) continue;
    const Value& after = itAfter->second;
    if (entryValue.isPointer()) {
      // p += stride: the root stays, the offset moves by a uniform step.
      if (after.isPointer() && after.root == entryValue.root && after.off)
        if (auto step = inductionStep(after.off, ph)) {
          state_.env[v] = Value{nullptr, entryValue.root, binary(Op::Add, entryValue.off, binary(Op::Mul, symbol(counter), *step))};
          steps[v] = *step;
          continue;
        }
      // Moved by arithmetic of its own that is not a uniform step (`dc = dc + k * lddc` with k
      // per thread, MAGMA's zlarf): the same allocation at an offset no longer followed, not a
      // pointer loaded from memory. Until session 28 it was marked loaded, and its accesses
      // were called gathers "through loaded indices" (blind panel 24: false).
      if (after.isPointer() && after.root == entryValue.root && !entryValue.root->indirect) {
        state_.env[v] = Value{nullptr, entryValue.root, leaf(Op::Varying)};
        continue;
      }
      auto r = std::make_shared<Root>(*entryValue.root);
      r->indirect = true;  // replaced by another pointer in a way we cannot follow
      state_.env[v] = Value{nullptr, r, constant(0)};
      continue;
    }
    if (after.isPointer() || !after.v || entryValue.object || entryValue.builtin) {
      state_.env[v] = entryValue.object || entryValue.builtin ? entryValue : intValue(leaf(Op::Varying));
      continue;
    }
    const ExprRef start = asInt(entryValue);
    if (auto step = inductionStep(after.v, ph)) {
      state_.env[v] = intValue(binary(Op::Add, start, binary(Op::Mul, symbol(counter), *step)));
      steps[v] = *step;
      continue;
    }
    if (isGeometric(after.v, ph) && isUniform(start)) {
      SymbolInfo g;
      g.name = v->getNameAsString();
      g.kind = SymbolInfo::Kind::LoopVar;
      g.loopInit = start;
      g.loopText = loopText;
      g.testAfter = testAfter;
      g.loop = loopId;
      const int gid = symbols_.add(g);
      symbols_[gid].loopNext = substitute(after.v, [&](const ExprRef& l) -> ExprRef {
        if (l->op == Op::Symbol && l->symbolId == ph) return symbol(gid);
        return nullptr;
      });
      state_.env[v] = intValue(symbol(gid));
      geometricIds.push_back(gid);
      geometricOf[v] = gid;
      continue;
    }
    state_.env[v] = intValue(isUniform(start) && isUniform(after.v) ? opaque(v->getNameAsString()) : leaf(Op::Varying));
  }

  // Pass 2: the condition guards the body (after the first iteration, for a do-while);
  // a break or a return in the body also ends the loop.
  state_.loopExits.emplace_back();
  ExprRef c = constant(1);
  if (cond && !testAfter) {
    c = asInt(eval(cond));
    recordBranch(BranchKind::Loop, c, cond, whole);
    pushGuard(c, text(cond->getSourceRange()), /*loop=*/true);
  }
  walk(body);
  if (cond && testAfter) {
    c = asInt(eval(cond));
    recordBranch(BranchKind::Loop, c, cond, whole);
  }
  if (inc) eval(inc);
  if (cond && !testAfter) popGuard();
  state_.available = std::move(carried);  // pass 2's own values are the iteration's, not the loop's
  if (state_.recording) loadsMayReadAgain(firstEvent);
  std::set<int> loopSymbols(geometricIds.begin(), geometricIds.end());
  loopSymbols.insert(counter);
  for (const auto& [v, id] : placeholder) loopSymbols.insert(id);
  for (const auto& [exit, isReturn] : state_.loopExits.back()) {
    c = binary(Op::LAnd, c, unary(Op::Not, exit));
    if (isReturn && !mentionsAny(exit, loopSymbols)) state_.pendingGuards.push_back({exit, "return in " + loopText});
  }
  state_.loopExits.pop_back();
  state_.loops.pop_back();
  symbols_[counter].loopCond = c;
  for (int id : geometricIds) symbols_[id].loopCond = c;
  // After the loop: an induction variable ends at entry + trips * step (the trip count
  // is known per launch when the loop's bounds are); anything else is no longer followed.
  SymbolInfo tripInfo;
  tripInfo.name = "trips of " + loopText;
  tripInfo.tripOf = counter;
  const int trips = symbols_.add(tripInfo);
  for (const auto& [v, step] : steps) {
    auto e = entry.find(v);
    if (e == entry.end()) continue;
    if (e->second.isPointer())
      state_.env[v] = Value{nullptr, e->second.root, binary(Op::Add, e->second.off, binary(Op::Mul, symbol(trips), step))};
    else
      state_.env[v] = intValue(binary(Op::Add, asInt(e->second), binary(Op::Mul, symbol(trips), step)));
  }
  for (const VarDecl* v : modified) {
    if (steps.count(v)) continue;
    auto it = state_.env.find(v);
    if (it == state_.env.end()) continue;
    // A geometric one (offset *= 2) ends at its value when the loop's condition fails,
    // known per launch when the loop's bounds are (a Blelloch scan's down-sweep starts
    // from the offset its up-sweep ended with).
    if (auto g = geometricOf.find(v); g != geometricOf.end()) {
      SymbolInfo exit;
      exit.name = v->getNameAsString();
      exit.exitOf = g->second;
      exit.loopText = loopText;
      it->second = intValue(symbol(symbols_.add(exit)));
      continue;
    }
    if (it->second.isPointer()) {
      // The final offset is not known: keep the root, with an opaque uniform offset, or one
      // no longer followed per thread (not loaded: see above).
      if (!isUniform(it->second.off) && !it->second.root->indirect) {
        it->second = Value{nullptr, it->second.root, leaf(Op::Varying)};
        continue;
      }
      auto r = std::make_shared<Root>(*it->second.root);
      if (!isUniform(it->second.off)) r->indirect = true;
      it->second = Value{nullptr, r, isUniform(it->second.off) ? opaque(v->getNameAsString()) : constant(0)};
      continue;
    }
    if (it->second.object || it->second.builtin) continue;
    it->second = intValue(it->second.v && isUniform(it->second.v) ? opaque(v->getNameAsString()) : leaf(Op::Varying));
  }
}

// The loads recorded since `firstEvent` (a loop's body) run again in the next iteration,
// after the body's stores: those stores may be read, so none of them is dead.
void Interpreter::loadsMayReadAgain(size_t firstEvent) {
  std::set<std::pair<const VarDecl*, model::Space>> readFrom;
  for (size_t i = firstEvent; i < events_.accesses.size(); ++i) {
    const SeenAccess& s = events_.accesses[i];
    if (s.raw.kind == model::AccessKind::Load && !s.dead) readFrom.insert({s.variable, s.raw.space});
  }
  for (const auto& [var, space] : readFrom) {
    Root r;
    r.var = var;
    r.space = space;
    state_.pendingStores.read(r);
  }
}

std::string Interpreter::loopHeaderText(const Stmt* s) {
  if (const auto* f = dyn_cast<ForStmt>(s)) {
    clang::SourceLocation end = f->getRParenLoc();
    return text(SourceRange(f->getBeginLoc(), end));
  }
  if (const auto* w = dyn_cast<WhileStmt>(s)) return "while (" + text(w->getCond()->getSourceRange()) + ")";
  if (const auto* d = dyn_cast<DoStmt>(s)) return "do ... while (" + text(d->getCond()->getSourceRange()) + ")";
  return "loop";
}

}  // namespace coalesce::analysis
