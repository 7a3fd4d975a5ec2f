// summarizeHostCode: one file's part of ProgramFacts (program_facts.h). The values are read
// with HostValues (host_values.cpp) in the file's own AST, without an environment: a constant
// the file shows, else a parameter of the function the code sits in, a host loop's counter
// (the loops around each call are described, for ProgramFacts to enumerate), a constant
// global defined in another file, else unknown.
#include "host_summary.h"
#include "host_writes.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "host_values.h"

namespace coalesce::analysis {

using namespace clang;

namespace {

class Summarizer : public RecursiveASTVisitor<Summarizer> {
 public:
  Summarizer(ASTContext& ctx, HostSummary& out) : ctx_(ctx), sm_(ctx.getSourceManager()), values_(ctx), out_(out) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl* d) {
    if (!d) return true;
    if (d->getLocation().isValid() && sm_.isInSystemHeader(d->getLocation())) return true;
    const auto* fn = dyn_cast<FunctionDecl>(d);
    if (!fn || !fn->doesThisDeclarationHaveABody() || fn->isDependentContext())
      return fn && fn->isDependentContext() ? true : RecursiveASTVisitor::TraverseDecl(d);
    const std::string name = fn->getNameAsString();
    out_.defined.insert(name);
    if (fn->isMain()) out_.roots.insert(name);
    functions_.push_back(fn);
    if (const auto* ctor = dyn_cast<CXXConstructorDecl>(fn))
      for (const CXXCtorInitializer* init : ctor->inits())
        if (const FieldDecl* field = init->getMember(); field && init->isWritten()) write(field, init->getInit(), false);
    const bool result = RecursiveASTVisitor::TraverseDecl(d);
    functions_.pop_back();
    return result;
  }

  bool VisitCallExpr(CallExpr* c) {
    const FunctionDecl* callee = c->getDirectCallee();
    if (!callee || !callee->getDeclName().isIdentifier()) return true;
    if (const auto* ref = dyn_cast<DeclRefExpr>(c->getCallee()->IgnoreParenImpCasts())) directCallees_.insert(ref);
    if (sm_.isInSystemHeader(callee->getLocation())) return true;
    HostSummary::Call call{caller(), callee->getNameAsString(), {}, {}, 1, {}, std::nullopt};
    const std::vector<const ForStmt*> loops = loopsAround(c);
    for (const ForStmt* loop : loops) call.loops.push_back(describe(loop, loops));
    call.share = shareOfIterations(c);
    call.site = siteOf(c->getBeginLoc());
    for (const Expr* arg : c->arguments()) call.args.push_back(valueOf(arg, &loops, /*counters=*/true));
    // A launch whose arguments the parse could not build (a header not found) is none, as for
    // the launch collector (LaunchCollector::VisitCUDAKernelCallExpr).
    if (const auto* kernelCall = dyn_cast<CUDAKernelCallExpr>(c);
        kernelCall && !kernelCall->isValueDependent() && !kernelCall->containsErrors())
      call.launch = launchOf(kernelCall, loops);
    out_.calls.push_back(std::move(call));
    return true;
  }

  // A `<<<grid, block, shared>>>` launch's configuration, axis by axis: what a kernel defined in
  // another file of the program is launched with (LaunchCollector::launchesFromOtherFiles).
  HostSummary::LaunchConfig launchOf(const CUDAKernelCallExpr* k, const std::vector<const ForStmt*>& loops) {
    HostSummary::LaunchConfig out;
    const PresumedLoc at = sm_.getPresumedLoc(sm_.getExpansionLoc(k->getBeginLoc()));
    if (at.isValid()) out.where = llvm::sys::path::filename(at.getFilename()).str() + ":" + std::to_string(at.getLine());
    if (const FunctionDecl* callee = k->getDirectCallee())
      out.templateArgs = templateArgumentsText(callee, ctx_);
    const CallExpr* config = k->getConfig();
    if (!config) return out;
    auto axes = [&](unsigned i, std::array<SummaryValue, 3>& to) {
      if (i >= config->getNumArgs()) return;
      const Expr* e = config->getArg(i)->IgnoreImplicit();
      // An integer block or grid (`k<<<n / 256, threads>>>`): x, with y and z 1, as valueOf reads
      // it (a parameter of the launching function kept for its callers; dim3AxesOf below gives
      // constants only).
      if (const auto* cons = dyn_cast<CXXConstructExpr>(e); cons && cons->getNumArgs() >= 1 &&
                                                             cons->getArg(0)->getType()->isIntegralOrEnumerationType() &&
                                                             (cons->getNumArgs() == 1 || isa<CXXDefaultArgExpr>(cons->getArg(1)))) {
        to[0] = valueOf(cons->getArg(0), &loops, /*counters=*/true);
        to[1].kind = to[2].kind = SummaryValue::Kind::Constant;
        to[1].constant = to[2].constant = 1;
        return;
      }
      const Dim3Axes d = values_.dim3AxesOf(e, nullptr);
      for (int a = 0; a < 3; ++a)
        if (d[a]) {
          to[a].kind = SummaryValue::Kind::Constant;
          to[a].constant = *d[a];
        }
    };
    axes(0, out.grid);
    axes(1, out.block);
    if (config->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(config->getArg(2)))
      out.sharedBytes = valueOf(config->getArg(2), &loops, /*counters=*/false);
    else {
      out.sharedBytes.kind = SummaryValue::Kind::Constant;
      out.sharedBytes.constant = 0;
    }
    return out;
  }

  // `extern "C" const uint MIN_SHORT_ARRAY_SIZE = 4;`: a constant another file may only declare.
  bool VisitVarDecl(VarDecl* v) {
    if (!v->isFileVarDecl() || v->isStaticDataMember() || !v->getType().isConstQualified() ||
        !v->getType()->isIntegralOrEnumerationType() ||
        !v->getInit() || !v->getDeclName().isIdentifier() || v->isInvalidDecl())
      return true;
    if (auto c = values_.constantOf(v->getInit())) out_.constants[v->getNameAsString()] = *c;
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* r) {
    if (const auto* fn = dyn_cast<FunctionDecl>(r->getDecl()); fn && !directCallees_.count(r) &&
                                                                fn->getDeclName().isIdentifier())
      out_.roots.insert(fn->getNameAsString());
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator* b) {
    if (!b->isAssignmentOp()) return true;
    if (const FieldDecl* field = memberOf(b->getLHS())) write(field, b->getRHS(), b->getOpcode() != BO_Assign);
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator* u) {
    if (!u->isIncrementDecrementOp() && u->getOpcode() != UO_AddrOf) return true;
    const FieldDecl* field = memberOf(u->getSubExpr());
    if (!field) return true;
    // `cudaMalloc(&input.g_b_raw, ...)`: a pointer member given an allocation's start.
    if (u->getOpcode() == UO_AddrOf && field->getType()->isPointerType()) {
      HostSummary::MemberWrite w{caller(), recordName(field->getParent()), field->getNameAsString(), {}, 0, true};
      out_.writes.push_back(std::move(w));
      return true;
    }
    write(field, nullptr, true);
    return true;
  }

  bool VisitInitListExpr(InitListExpr* list) {
    const InitListExpr* semantic = list->isSemanticForm() ? list : list->getSemanticForm();
    if (!semantic || !seenLists_.insert(semantic).second) return true;
    const RecordDecl* record = semantic->getType()->getAsRecordDecl();
    if (!record || record->isUnion()) return true;
    unsigned i = 0;
    for (const FieldDecl* field : record->fields()) {
      if (i >= semantic->getNumInits()) break;
      write(field, semantic->getInit(i++), false);
    }
    return true;
  }

  bool VisitFieldDecl(FieldDecl* field) {
    const Expr* init = field->hasInClassInitializer() ? field->getInClassInitializer() : nullptr;
    if (!init) return true;
    // `unsigned int iVolX = 0;` (ASTRA's SDimensions3D): a placeholder every real object
    // replaces, in code the program's files may not hold (ASTRA fills its dimensions in
    // files outside its CUDA folder). Taken as the one value written, it made a grid of zero
    // blocks, and the kernel's divergence was counted in block 0 alone (blind panel 32). A
    // default of 0 or less is not a value of the program; a positive one (`int threads =
    // 128;`) still is.
    Expr::EvalResult r;
    if (field->getType()->isIntegralOrEnumerationType() && init->EvaluateAsInt(r, ctx_) && r.Val.isInt() &&
        r.Val.getInt().getExtValue() <= 0)
      return true;
    // A constructor of the class that sets the member from its arguments: objects built by it
    // hold the caller's value, the default only those built without it. A class template's
    // constructors are not instantiated where nothing in the unit calls them, so that write is
    // not seen, and the default alone was taken as the member's one value: Anakin's
    // `TopKAvgPoolingParam(std::vector<int> top_ks_in, int feat_map_num_in, ...)` with `int
    // feat_map_num{1};` made every launch's `param.feat_map_num` 1 (blind panel 34).
    if (setByConstructor(field)) {
      write(field, nullptr, /*opaque=*/true, /*global=*/true);
      return true;
    }
    write(field, init, false, /*global=*/true);
    return true;
  }

 private:
  ASTContext& ctx_;
  const SourceManager& sm_;
  HostValues values_;
  HostSummary& out_;
  std::vector<const FunctionDecl*> functions_;
  std::set<const DeclRefExpr*> directCallees_;
  std::set<const InitListExpr*> seenLists_;

  // Whether a constructor other than a copy or move sets `field` from a value that is not a
  // constant (its member initialiser list as written).
  bool setByConstructor(const FieldDecl* field) const {
    const auto* record = dyn_cast<CXXRecordDecl>(field->getParent());
    if (!record || !record->hasDefinition()) return false;
    for (const CXXConstructorDecl* ctor : record->ctors()) {
      if (ctor->isCopyOrMoveConstructor()) continue;
      for (const CXXCtorInitializer* init : ctor->inits()) {
        if (!init->isWritten() || init->getMember() != field || !init->getInit()) continue;
        const Expr* value = init->getInit()->IgnoreImplicit();
        if (const auto* list = dyn_cast<ParenListExpr>(value); list && list->getNumExprs() == 1) value = list->getExpr(0);
        Expr::EvalResult r;
        if (value->isValueDependent() || !value->EvaluateAsInt(r, ctx_)) return true;
      }
    }
    return false;
  }

  std::string caller() const { return functions_.empty() ? std::string() : functions_.back()->getNameAsString(); }
  const FunctionDecl* function() const { return functions_.empty() ? nullptr : functions_.back(); }

  // "path:expansion offset:spelling offset" of `loc` (HostSummary::Call::site): the file by its
  // absolute path, which every parse of the program's folder names alike.
  std::string siteOf(SourceLocation loc) const {
    if (loc.isInvalid()) return {};
    const auto [file, offset] = sm_.getDecomposedExpansionLoc(loc);
    const unsigned spelling = sm_.getDecomposedSpellingLoc(loc).second;
    OptionalFileEntryRef entry = sm_.getFileEntryRefForID(file);
    if (!entry) return {};
    StringRef path = entry->getFileEntry().tryGetRealPathName();
    if (path.empty()) path = entry->getName();
    return path.str() + ":" + std::to_string(offset) + ":" + std::to_string(spelling);
  }

  static const FieldDecl* memberOf(const Expr* e) {
    const auto* m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
    return m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  }

  // The `for` loops around `s` in the function it sits in, outermost first (a `while` or `do`
  // around it too: null, a loop of unknown count).
  std::vector<const ForStmt*> loopsAround(const Stmt* s) {
    std::vector<const ForStmt*> out;
    const Stmt* child = s;
    for (;;) {
      const Stmt* parent = values_.parents().parentOf(child, function());
      if (!parent) break;  // the function (or a declaration) is reached
      const Stmt* body = nullptr;
      if (const auto* f = dyn_cast<ForStmt>(parent)) body = f->getBody();
      else if (const auto* w = dyn_cast<WhileStmt>(parent)) body = w->getBody();
      else if (const auto* d = dyn_cast<DoStmt>(parent)) body = d->getBody();
      else if (const auto* r = dyn_cast<CXXForRangeStmt>(parent)) body = r->getBody();
      if (body && body == child) out.insert(out.begin(), dyn_cast<ForStmt>(parent));
      child = parent;
    }
    return out;
  }

  // The share of the iterations of the loops around `s` that reach it: `if (i % k == 0)` arms
  // whose dividend a loop further out steps (host_writes.h).
  double shareOfIterations(const Stmt* s) {
    double share = 1;
    std::vector<EveryNthArm> pending;
    const Stmt* child = s;
    for (;;) {
      const Stmt* parent = values_.parents().parentOf(child, function());
      if (!parent) break;
      if (const auto* branch = dyn_cast<IfStmt>(parent))
        if (auto arm = everyNthArm(branch, child, values_)) pending.push_back(std::move(*arm));
      if (isa<ForStmt>(parent) || isa<WhileStmt>(parent) || isa<DoStmt>(parent) || isa<CXXForRangeStmt>(parent))
        for (auto arm = pending.begin(); arm != pending.end();) {
          if (std::none_of(arm->dividend.begin(), arm->dividend.end(), [&](const VarDecl* v) { return writes(parent, v); })) {
            ++arm;
            continue;
          }
          share *= arm->share;
          arm = pending.erase(arm);
        }
      child = parent;
    }
    return share;
  }

  // The counter of `for (T v = start; ...)` or `for (v = start; ...)` (Rodinia kmeans' `for
  // (nclusters = min_nclusters; ...)`), and its start.
  static std::pair<const VarDecl*, const Expr*> counterAndStart(const ForStmt* loop) {
    if (!loop) return {nullptr, nullptr};
    if (const auto* d = dyn_cast_or_null<DeclStmt>(loop->getInit()); d && d->isSingleDecl()) {
      const auto* var = dyn_cast<VarDecl>(d->getSingleDecl());
      if (var && var->getInit() && var->getType()->isIntegerType()) return {var, var->getInit()};
    } else if (const auto* b = dyn_cast_or_null<BinaryOperator>(loop->getInit()); b && b->getOpcode() == BO_Assign) {
      const auto* r = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts());
      const auto* var = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
      if (var && var->isLocalVarDecl() && var->getType()->isIntegerType()) return {var, b->getRHS()};
    }
    return {nullptr, nullptr};
  }
  static const VarDecl* counterOf(const ForStmt* loop) { return counterAndStart(loop).first; }

  // `for (T v = start; v CMP bound; v STEP by)` with nothing in the body writing v.
  SummaryLoop describe(const ForStmt* loop, const std::vector<const ForStmt*>& loops) {
    SummaryLoop out;
    const VarDecl* var = counterOf(loop);
    const auto* cond = var && loop->getCond() ? dyn_cast<BinaryOperator>(loop->getCond()->IgnoreParenImpCasts()) : nullptr;
    const auto isVar = [&](const Expr* e) {
      const auto* r = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return r && r->getDecl() == var;
    };
    if (!cond || !isVar(cond->getLHS()) || !loop->getInc() || !loop->getBody()) return out;
    switch (cond->getOpcode()) {
      case BO_LT: out.compare = SummaryLoop::Compare::Less; break;
      case BO_LE: out.compare = SummaryLoop::Compare::LessEqual; break;
      case BO_GT: out.compare = SummaryLoop::Compare::Greater; break;
      case BO_GE: out.compare = SummaryLoop::Compare::GreaterEqual; break;
      case BO_NE: out.compare = SummaryLoop::Compare::NotEqual; break;
      default: return out;
    }
    const Expr* inc = loop->getInc()->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(inc); u && u->isIncrementDecrementOp() && isVar(u->getSubExpr())) {
      out.by = u->isIncrementOp() ? 1 : -1;
    } else if (const auto* a = dyn_cast<CompoundAssignOperator>(inc); a && isVar(a->getLHS())) {
      const auto by = values_.constantOf(a->getRHS());
      if (!by) return out;
      out.by = *by;
      switch (a->getOpcode()) {
        case BO_AddAssign: break;
        case BO_SubAssign: out.by = -*by; break;
        case BO_MulAssign: out.step = SummaryLoop::Step::Multiply; break;
        case BO_DivAssign: out.step = SummaryLoop::Step::Divide; break;
        case BO_ShlAssign: out.step = SummaryLoop::Step::ShiftLeft; break;
        case BO_ShrAssign: out.step = SummaryLoop::Step::ShiftRight; break;
        default: return out;
      }
    } else {
      return out;
    }
    if (writes(loop->getBody(), var)) return out;  // not a plain counter
    out.start = valueOf(counterAndStart(loop).second, &loops, /*counters=*/false);
    out.bound = valueOf(cond->getRHS(), &loops, /*counters=*/false);
    out.followable = out.start.kind != SummaryValue::Kind::Unknown && out.bound.kind != SummaryValue::Kind::Unknown &&
                     out.start.kind != SummaryValue::Kind::Parameter && out.bound.kind != SummaryValue::Kind::Parameter;
    return out;
  }

  static bool writes(const Stmt* s, const VarDecl* var) {
    if (!s) return false;
    const auto hits = [&](const Expr* x) {
      const auto* r = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
      return r && r->getDecl() == var;
    };
    if (const auto* b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && hits(b->getLHS())) return true;
    if (const auto* u = dyn_cast<UnaryOperator>(s))
      if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && hits(u->getSubExpr())) return true;
    for (const Stmt* c : s->children())
      if (writes(c, var)) return true;
    return false;
  }

  // Whether `e` reads the counter of one of `loops`.
  static bool readsCounter(const Stmt* e, const std::vector<const ForStmt*>& loops) {
    if (!e) return false;
    if (const auto* r = dyn_cast<DeclRefExpr>(e))
      for (const ForStmt* loop : loops)
        if (const VarDecl* var = counterOf(loop); var && r->getDecl() == var) return true;
    for (const Stmt* c : e->children())
      if (readsCounter(c, loops)) return true;
    return false;
  }

  // `loops`: the host loops around the value (their counters change over the run: the
  // counter itself is Counter where `counters` allows it, anything else over one is unknown,
  // not the first iteration's value HostValues would give).
  SummaryValue valueOf(const Expr* e, const std::vector<const ForStmt*>* loops = nullptr, bool counters = false) {
    SummaryValue v;
    if (!e || e->isValueDependent()) return v;
    if (loops && !loops->empty()) {
      const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      for (size_t i = 0; ref && counters && i < loops->size(); ++i)
        if (const VarDecl* var = counterOf((*loops)[i]); var && ref->getDecl() == var) {
          v.kind = SummaryValue::Kind::Counter;
          v.parameter = static_cast<int>(i);
          return v;
        }
      if (readsCounter(e, *loops)) return v;
    }
    // A constant global this file only declares: its definition is in another file.
    if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* var = dyn_cast<VarDecl>(ref->getDecl());
          var && var->isFileVarDecl() && !var->isStaticDataMember() && !var->getAnyInitializer() &&
          var->getType().isConstQualified() &&
          var->getType()->isIntegralOrEnumerationType() && var->getDeclName().isIdentifier()) {
        v.kind = SummaryValue::Kind::Global;
        v.function = var->getNameAsString();
        return v;
      }
    if (e->getType()->isIntegralOrEnumerationType())
      if (auto c = values_.constantOf(e)) {
        v.kind = SummaryValue::Kind::Constant;
        v.constant = *c;
        return v;
      }
    // `argc > 3 ? atoi(argv[3]) : 4096`: the option's default, for the cost's questions; named
    // by the member it is written to (write()).
    if (!functions_.empty())
      if (auto d = values_.conditionalOptionDefault(e, functions_.back())) {
        v.kind = SummaryValue::Kind::OptionDefault;
        v.constant = *d;
        return v;
      }
    const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    // A local given a constant that only a command-line option changes: its default, for the
    // cost's questions (program_facts.h).
    if (const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr; var && !isa<ParmVarDecl>(var))
      if (auto d = values_.optionDefault(var)) {
        v.kind = SummaryValue::Kind::OptionDefault;
        v.constant = *d;
        v.function = var->getNameAsString();
        return v;
      }
    const auto* parm = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
    if (parm && !functions_.empty() && parm->getDeclContext() == functions_.back() && !values_.isReassigned(parm)) {
      v.kind = SummaryValue::Kind::Parameter;
      v.function = functions_.back()->getNameAsString();
      v.parameter = static_cast<int>(parm->getFunctionScopeIndex());
    }
    return v;
  }

  // `value` null or `opaque`: the member is written with a value not known here.
  void write(const FieldDecl* field, const Expr* value, bool opaque, bool global = false) {
    const std::string record = recordName(field->getParent());
    if (record.empty()) return;
    HostSummary::MemberWrite w{global ? std::string() : caller(), record, field->getNameAsString(), {}, {}, false};
    if (field->getType()->isPointerType()) {
      w.pointer = true;
      if (value && value->isNullPointerConstant(ctx_, Expr::NPC_ValueDependentIsNotNull)) return;  // `p = NULL`
      if (value && !opaque) w.pointerBytes = values_.pointerByteOffset(value, nullptr);
    } else if (field->getType()->isIntegralOrEnumerationType()) {
      if (value && !opaque) w.value = valueOf(value);
      if (w.value.kind == SummaryValue::Kind::OptionDefault && w.value.function.empty())
        w.value.function = field->getNameAsString();
    } else {
      return;
    }
    out_.writes.push_back(std::move(w));
  }
};

}  // namespace

std::string templateArgumentsText(const FunctionDecl* f, const ASTContext& ctx) {
  const TemplateArgumentList* args = f ? f->getTemplateSpecializationArgs() : nullptr;
  if (!args) return {};
  std::vector<TemplateArgument> canonical;
  for (const TemplateArgument& a : args->asArray()) canonical.push_back(ctx.getCanonicalTemplateArgument(a));
  std::string out;
  llvm::raw_string_ostream os(out);
  printTemplateArgumentList(os, canonical, PrintingPolicy(ctx.getLangOpts()));
  return os.str();
}

std::string recordName(const RecordDecl* r) {
  if (!r) return {};
  if (r->getIdentifier()) return r->getNameAsString();
  if (const TypedefNameDecl* t = r->getTypedefNameForAnonDecl()) return t->getNameAsString();
  return {};
}

HostSummary summarizeHostCode(ASTContext& ctx) {
  HostSummary out;
  Summarizer s(ctx, out);
  s.TraverseDecl(ctx.getTranslationUnitDecl());
  out.complete = !ctx.getDiagnostics().hasErrorOccurred();
  return out;
}

}  // namespace coalesce::analysis
