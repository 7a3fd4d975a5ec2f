// Whether one host statement writes a local, as the host values count writes (HostValues::
// isReassigned, host_values.cpp) and the run-time options' defaults do (host_options.cpp).
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <functional>
#include <optional>
#include <vector>

namespace coalesce::analysis {

class HostValues;

// Whether `s` itself (not its children) writes `var`: assigns it (`=`, `*=`, ...), bumps it,
// takes its address, or passes it to a non-const reference parameter. Defined in host_options.cpp.
bool writesVariable(const clang::Stmt* s, const clang::VarDecl* var);
// Whether `s` or a statement inside it writes `var` (writesVariable). Defined in host_options.cpp.
bool writesAnywhere(const clang::Stmt* s, const clang::VarDecl* var);
// The writes to a dim3 `var` in `s` and the statements inside it: each `var.m = ...`-style
// assignment with its axis (m x, y, z: 0, 1, 2; another member: -1), and, with a null
// assignment and -1, each statement that writes the whole variable (writesVariable). Defined
// in host_values.cpp.
void dim3Writes(const clang::Stmt* s, const clang::VarDecl* var,
                const std::function<void(const clang::BinaryOperator*, int)>& each);

// `if (i % k == 0)` (`!(i % k)`, `i % k == c`, `i % k != c`, and their else arms), k a constant
// the host code shows: the share of the iterations of a loop stepping i that take the arm
// `child` of `branch` is in, 1 / k (or 1 - 1 / k), with the dividend's variables; nothing for
// another condition. A kernel run only when a loss is printed (`if (step % monitoring_step ==
// 0)`) runs once in monitoring_step steps. Defined in launch_repeats.cpp; read by the launch
// counts of this file (LaunchCollector::runsOf) and of the program's others (host_summary.cpp).
struct EveryNthArm {
  double share = 1;
  int64_t k = 1;
  bool taken = true;  // the arm runs when the remainder is the value compared with
  std::vector<const clang::VarDecl*> dividend;
};
std::optional<EveryNthArm> everyNthArm(const clang::IfStmt* branch, const clang::Stmt* child, HostValues& values);

}  // namespace coalesce::analysis
