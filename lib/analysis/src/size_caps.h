// Blocks the host computes at run time under a constant cap: `order < 1024 ? order : 1024`
// (Rodinia's b+tree), `min(n, 256)`, or a local given the input's size and then the cap under
// `if (n > MAX)` (Rodinia's bfs: `int threads = no_of_nodes; if (no_of_nodes > 512) threads =
// 512;`). For an input larger than a block, the rule issue #13 gives for runtime scalars (a
// problem larger than a block, the accesses live), the block is the cap. HostValues
// (host_values.h) gives up on these, as the value is not a constant; this reads the cap and
// says where it came from. launch_collector.cpp asks it only for launches whose block is not
// known otherwise.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>

#include <map>
#include <optional>
#include <string>

#include "host_values.h"

namespace coalesce::analysis {

struct CappedAxes {
  Dim3Axes axes;    // constants, and the caps where a cap fixes an axis
  std::string why;  // "`threads` is capped at 512 by `no_of_nodes > MAX_THREADS_PER_BLOCK` (bfs.cu:104)"
  bool capped = false;  // some axis came from a cap
};

class SizeCaps {
 public:
  SizeCaps(clang::ASTContext& ctx, HostValues& values) : ctx_(ctx), values_(values) {}

  // The block argument of a launch, axis by axis, with caps read where the axis is computed at
  // run time: an integer, dim3(x, y, z) or a dim3 local initialised so.
  CappedAxes cappedAxesOf(const clang::Expr* block, const HostEnv* env);

 private:
  clang::ASTContext& ctx_;
  HostValues& values_;
  static constexpr int kMaxDepth = 16;

  // The value of an integer expression for a large input: a constant, or a cap.
  std::optional<int64_t> capOf(const clang::Expr* e, const HostEnv* env, std::string& why, int depth);
  // A comparison of something computed at run time with a constant, read for a large value
  // of the former: `n > 512` is true, `n < 512` false; nullopt for anything else.
  std::optional<bool> holdsForLargeInput(const clang::Expr* condition, const HostEnv* env);
  // A local's values, each with whether the ifs around it hold for a large input.
  std::optional<int64_t> cappedLocal(const clang::VarDecl* var, const HostEnv* env, std::string& why, int depth);
  std::string where(clang::SourceLocation loc) const;
  std::string text(const clang::Expr* e) const;
};

}  // namespace coalesce::analysis
