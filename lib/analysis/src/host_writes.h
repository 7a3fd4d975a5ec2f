// Whether one host statement writes a local, as the host values count writes (HostValues::
// isReassigned, host_values.cpp) and the run-time options' defaults do (host_options.cpp).
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

namespace coalesce::analysis {

// Whether `s` itself (not its children) writes `var`: assigns it (`=`, `*=`, ...), bumps it,
// takes its address, or passes it to a non-const reference parameter. Defined in host_options.cpp.
bool writesVariable(const clang::Stmt* s, const clang::VarDecl* var);

}  // namespace coalesce::analysis
