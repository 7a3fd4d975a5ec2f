#include "fix_edits.h"

#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace coalesce::analysis {

using namespace clang;

namespace {

// The edit replacing `range` (a file range of the main file) with `text`; empty when the
// range is not one.
TextEdit editOf(CharSourceRange range, std::string text, const SourceManager& sm) {
  TextEdit edit;
  if (range.isInvalid()) return edit;
  const FileID file = sm.getFileID(range.getBegin());
  if (file != sm.getMainFileID() || file != sm.getFileID(range.getEnd())) return edit;
  const OptionalFileEntryRef entry = sm.getFileEntryRefForID(file);
  // A #line directive names another file than the one the bytes are in: no edit.
  if (!entry || llvm::StringRef(sm.getPresumedLoc(range.getBegin()).getFilename()) != entry->getName()) return edit;
  edit.file = std::string(entry->getName());
  edit.offset = sm.getFileOffset(range.getBegin());
  edit.length = sm.getFileOffset(range.getEnd()) - edit.offset;
  edit.replacement = std::move(text);
  return edit;
}

// `e` + 1 as source text: a literal gets its successor, a name or a product `TILE + 1`,
// anything that binds less tightly than + gets parentheses.
std::string plusOne(const Expr* e, const std::string& text, bool literal) {
  const Expr* bare = e->IgnoreParenImpCasts();
  if (literal)
    if (const auto* lit = dyn_cast<IntegerLiteral>(bare)) return std::to_string(lit->getValue().getZExtValue() + 1);
  if (const auto* op = dyn_cast<BinaryOperator>(bare))
    if (op->getOpcode() > BO_Sub) return "(" + text + ") + 1";  // shifts, comparisons, bitwise, logical, comma
  if (isa<ConditionalOperator>(bare)) return "(" + text + ") + 1";
  return text + " + 1";
}

// Whether every use of an array inside one function indexes all its dimensions
// (`tile[r][c]`), so that the layout of its rows is invisible to the code: no pointer to it
// or to a row, no sizeof, no address of an element except as an atomic's operand.
class ArrayUses : public RecursiveASTVisitor<ArrayUses> {
 public:
  ArrayUses(const VarDecl* var, size_t rank) : var_(var), rank_(rank) {}

  bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
    if (const DeclRefExpr* ref = fullSubscriptOf(e)) covered_.insert(ref);
    return true;
  }
  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier() || !callee->getName().starts_with("atomic")) return true;
    for (const Expr* arg : call->arguments())
      if (const auto* addr = dyn_cast<UnaryOperator>(arg->IgnoreParenImpCasts()); addr && addr->getOpcode() == UO_AddrOf)
        atomicOperands_.insert(addr);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->getOpcode() != UO_AddrOf || atomicOperands_.count(op)) return true;
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(op->getSubExpr()->IgnoreParens()); sub && fullSubscriptOf(sub))
      if (!firstEscape_.isValid()) firstEscape_ = op->getExprLoc();
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (ref->getDecl() == var_) refs_.push_back(ref);
    return true;
  }
  bool VisitVarDecl(VarDecl* v) {
    if (v->hasAttr<CUDASharedAttr>() && !v->hasExternalStorage()) sharedVars_.push_back(v);
    return true;
  }

  // Where the array is first used otherwise than through full subscripts; invalid if nowhere.
  clang::SourceLocation firstOtherUse() const {
    for (const DeclRefExpr* ref : refs_)
      if (!covered_.count(ref)) return ref->getLocation();
    return firstEscape_;
  }
  const std::vector<const VarDecl*>& sharedVars() const { return sharedVars_; }

 private:
  const DeclRefExpr* fullSubscriptOf(const ArraySubscriptExpr* e) const {
    size_t depth = 0;
    const Expr* at = e;
    while (const auto* sub = dyn_cast<ArraySubscriptExpr>(at->IgnoreParenImpCasts())) {
      ++depth;
      at = sub->getBase();
    }
    const auto* ref = dyn_cast<DeclRefExpr>(at->IgnoreParenImpCasts());
    return ref && ref->getDecl() == var_ && depth == rank_ ? ref : nullptr;
  }

  const VarDecl* var_;
  size_t rank_;
  std::vector<const DeclRefExpr*> refs_;
  std::set<const DeclRefExpr*> covered_;
  std::set<const UnaryOperator*> atomicOperands_;
  clang::SourceLocation firstEscape_;
  std::vector<const VarDecl*> sharedVars_;
};

}  // namespace

ArrayPadding sharedArrayPadding(const VarDecl* var, ASTContext& ctx, const model::Arch& arch) {
  ArrayPadding out;
  if (!var || !var->hasAttr<CUDASharedAttr>()) return out;
  const SourceManager& sm = ctx.getSourceManager();
  const LangOptions& lang = ctx.getLangOpts();
  out.array = var->getNameAsString();

  // The dimensions, outermost first, from the type and from the declaration as written.
  std::vector<int64_t> dims;
  QualType element = var->getType();
  while (const ConstantArrayType* a = ctx.getAsConstantArrayType(element)) {
    dims.push_back(static_cast<int64_t>(a->getSize().getZExtValue()));
    element = a->getElementType();
  }
  if (dims.empty()) {
    out.blocked = "its size is not a constant of its declaration (extern __shared__): pad the rows in its index instead";
    return out;
  }
  out.lastDimension = dims.back();
  out.elementBytes = static_cast<int64_t>(ctx.getTypeSizeInChars(element).getQuantity());
  if (dims.size() < 2) {
    out.blocked = "it is one-dimensional: padding its rows means changing every index that computes them "
                  "(row * W + col -> row * (W + 1) + col)";
    return out;
  }
  std::vector<const Expr*> sizes;
  if (const TypeSourceInfo* info = var->getTypeSourceInfo()) {
    TypeLoc loc = info->getTypeLoc().getUnqualifiedLoc();
    while (auto array = loc.getAs<ArrayTypeLoc>()) {
      sizes.push_back(array.getSizeExpr());
      loc = array.getElementLoc().getUnqualifiedLoc();
    }
  }
  if (sizes.size() != dims.size() || !sizes.back()) {
    out.blocked = "its dimensions are not all written in its declaration (a typedef or a template's type)";
    return out;
  }
  std::vector<std::string> texts;
  for (const Expr* size : sizes) {
    const CharSourceRange range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(size->getSourceRange()), sm, lang);
    texts.push_back(range.isValid() ? Lexer::getSourceText(range, sm, lang).str() : std::string("?"));
  }
  for (const std::string& t : texts) out.declared += "[" + t + "]";
  const Expr* last = sizes.back();
  const CharSourceRange lastRange =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(last->getSourceRange()), sm, lang);
  if (lastRange.isInvalid()) {
    out.blocked = "its last dimension is written inside a macro's expansion";
    return out;
  }
  const bool literal = !last->getBeginLoc().isMacroID() && isa<IntegerLiteral>(last->IgnoreParenImpCasts());
  const std::string padded = plusOne(last, texts.back(), literal);
  texts.back() = padded;
  for (const std::string& t : texts) out.padded += "[" + t + "]";

  // Padding changes the layout: safe only if nothing but full subscripts sees it.
  const auto* fn = dyn_cast_or_null<FunctionDecl>(var->getParentFunctionOrMethod());
  if (!fn || !fn->getBody()) {
    out.blocked = "it is declared at file scope, where every function of the file may see its layout";
    return out;
  }
  ArrayUses uses(var, dims.size());
  uses.TraverseStmt(fn->getBody());
  if (const clang::SourceLocation other = uses.firstOtherUse(); other.isValid()) {
    out.blocked = "'" + out.array + "' is used at line " + std::to_string(sm.getPresumedLineNumber(sm.getExpansionLoc(other))) +
                  " otherwise than as an element (a pointer to it or a row, its size, an element's address): "
                  "padding would change what that code sees";
    return out;
  }
  int64_t staticShared = 0;
  for (const VarDecl* v : uses.sharedVars())
    if (!v->getType()->isDependentType()) staticShared += ctx.getTypeSizeInChars(v->getType()).getQuantity();
  const int64_t extra = var->getType()->isDependentType()
                            ? 0
                            : ctx.getTypeSizeInChars(var->getType()).getQuantity() / dims.back();
  // Beyond the static __shared__ limit of a block the kernel does not compile (Arch).
  if (staticShared + extra > arch.maxStaticSharedBytesPerBlock) {
    out.blocked = "padding would take the function's static shared memory to " + std::to_string(staticShared + extra) +
                  " bytes, over the " + std::to_string(arch.maxStaticSharedBytesPerBlock / 1024) +
                  " KiB limit of a block";
    return out;
  }
  out.edit = editOf(lastRange, padded, sm);
  if (out.edit.empty()) out.blocked = "it is declared in a header, which other files may include";
  return out;
}

void attachFixEdits(const FunctionDecl* kernel, const KernelEvents& events, ASTContext& ctx, const model::Arch& arch,
                    TranslationUnitResult& out, size_t firstAccess, size_t firstParam) {
  std::map<const VarDecl*, ArrayPadding> paddings;
  for (size_t i = 0; i < events.accesses.size() && firstAccess + i < out.accesses.size(); ++i) {
    const VarDecl* var = events.accesses[i].variable;
    if (!var || events.accesses[i].raw.space != model::Space::Shared) continue;
    auto it = paddings.find(var);
    if (it == paddings.end()) it = paddings.emplace(var, sharedArrayPadding(var, ctx, arch)).first;
    out.accesses[firstAccess + i].padding = it->second;
  }
  size_t param = firstParam;
  for (const ParmVarDecl* p : kernel->parameters()) {
    if (!p->getType()->isPointerType()) continue;
    if (param < out.pointerParams.size()) out.pointerParams[param].restrictEdit = restrictEdit(p, ctx.getSourceManager());
    ++param;
  }
}

TextEdit restrictEdit(const ParmVarDecl* param, const SourceManager& sm) {
  if (!param || !param->getIdentifier() || !param->getOriginalType()->isPointerType()) return {};
  const clang::SourceLocation at = param->getLocation();
  if (at.isMacroID()) return {};
  return editOf(CharSourceRange::getCharRange(at, at), "__restrict__ ", sm);
}

}  // namespace coalesce::analysis
