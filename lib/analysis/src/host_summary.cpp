// summarizeHostCode: one file's part of ProgramFacts (program_facts.h). The values are read
// with HostValues (host_values.cpp) in the file's own AST, without an environment: a constant
// the file shows, else a parameter of the function the code sits in, else unknown.
#include "host_summary.h"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <set>
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
    HostSummary::Call call{caller(), callee->getNameAsString(), {}};
    for (const Expr* arg : c->arguments()) call.args.push_back(valueOf(arg));
    out_.calls.push_back(std::move(call));
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
    if (field->hasInClassInitializer() && field->getInClassInitializer())
      write(field, field->getInClassInitializer(), false, /*global=*/true);
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

  std::string caller() const { return functions_.empty() ? std::string() : functions_.back()->getNameAsString(); }

  static const FieldDecl* memberOf(const Expr* e) {
    const auto* m = dyn_cast<MemberExpr>(e->IgnoreParenImpCasts());
    return m ? dyn_cast<FieldDecl>(m->getMemberDecl()) : nullptr;
  }

  SummaryValue valueOf(const Expr* e) {
    SummaryValue v;
    if (!e || e->isValueDependent()) return v;
    if (e->getType()->isIntegralOrEnumerationType())
      if (auto c = values_.constantOf(e)) {
        v.kind = SummaryValue::Kind::Constant;
        v.constant = *c;
        return v;
      }
    const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
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
    } else {
      return;
    }
    out_.writes.push_back(std::move(w));
  }
};

}  // namespace

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
  return out;
}

}  // namespace coalesce::analysis
