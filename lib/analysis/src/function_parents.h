// The statements around a host statement, read within its own function's body.
//
// The host readers walk up from a statement to its function (the loops around a launch, the
// `if` arms around an assignment: host_summary.cpp, host_sizes.cpp, host_options.cpp,
// host_values.cpp). ASTContext::getParents answers that from a parent map of the whole
// translation unit, built on its first call: every declaration of the CUDA and C++ headers and
// their template instantiations, 137 M of Rodinia hotspot.cu's 1,408 M analysis instructions
// and 15 to 20 % of the 65,536-load kernel's run (docs/analysis-speed.md, session 26). A
// clang::ParentMap of the one function body asked about costs a walk of that body.
//
// The walks read what getParents gave them: they stop where its parent is a declaration, not
// a statement (an initialiser's parent is its variable; a lambda's body belongs to its call
// operator), so parentOf stops there too.
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <map>
#include <memory>

namespace coalesce::analysis {

class FunctionParents {
 public:
  // The statement directly around `s` in `fn`'s body; null at the body, for a statement outside
  // it, and where the parent is a declaration (above).
  const clang::Stmt* parentOf(const clang::Stmt* s, const clang::FunctionDecl* fn) {
    const clang::ParentMap* map = mapOf(fn);
    const clang::Stmt* parent = map ? map->getParent(s) : nullptr;
    if (!parent || llvm::isa<clang::DeclStmt>(parent)) return nullptr;
    if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(parent); lambda && lambda->getBody() == s) return nullptr;
    return parent;
  }

  // The declaration statement whose initialiser holds `s` (`dim3 block(divU, divV);` around the
  // read of `divU`), or null: the statement a walk that reads values on their way to a use
  // goes on from (reaching_assignment.cpp), where parentOf stops.
  const clang::DeclStmt* declarationAround(const clang::Stmt* s, const clang::FunctionDecl* fn) {
    const clang::ParentMap* map = mapOf(fn);
    return map ? llvm::dyn_cast_or_null<clang::DeclStmt>(map->getParent(s)) : nullptr;
  }

  // The `for` whose init statement declares `var` (`for (int i = 0; ...)`), or null.
  const clang::ForStmt* loopDeclaring(const clang::VarDecl* var) {
    const auto* fn = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getDeclContext());
    if (!fn || !fn->getBody()) return nullptr;
    auto [it, fresh] = loopsByFunction_.try_emplace(fn->getBody());
    if (fresh) collectLoops(fn->getBody(), it->second);
    const auto found = it->second.find(var);
    return found == it->second.end() ? nullptr : found->second;
  }

  // The parent map of `fn`'s body, made on first use and kept (null: no body). The launch
  // collector's walks from a launch to its function read it too (LaunchCollector::parentsOf).
  const clang::ParentMap* mapOf(const clang::FunctionDecl* fn) {
    clang::Stmt* body = fn ? fn->getBody() : nullptr;
    if (!body) return nullptr;
    auto& kept = maps_[body];
    if (!kept) kept = std::make_unique<clang::ParentMap>(body);
    return kept.get();
  }

 private:
  static void collectLoops(const clang::Stmt* s, std::map<const clang::VarDecl*, const clang::ForStmt*>& out) {
    if (!s) return;
    if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(s))
      if (const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit()))
        for (const clang::Decl* d : init->decls())
          if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d)) out.emplace(v, loop);
    for (const clang::Stmt* child : s->children()) collectLoops(child, out);
  }

  std::map<const clang::Stmt*, std::unique_ptr<clang::ParentMap>> maps_;  // by function body
  std::map<const clang::Stmt*, std::map<const clang::VarDecl*, const clang::ForStmt*>> loopsByFunction_;
};

}  // namespace coalesce::analysis
