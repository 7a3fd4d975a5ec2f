// Walks the kernels of one translation unit (device pass) and turns every global and
// shared memory access into an AccessSite. The only place that knows Clang's AST.
#pragma once

#include <clang/AST/ASTContext.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coalesce/analysis/analyze.h"
#include "coalesce/model/arch.h"
#include "coalesce/records/records.h"
#include "program_facts.h"

namespace clang {
class ASTContext;
}

namespace coalesce::analysis {

struct TranslationUnitOptions {
  model::Arch arch;
  std::optional<model::Dim3> blockDim;           // --block-dim
  std::map<std::string, int64_t> assumedValues;  // --assume NAME=VALUE
  size_t maxInstantiations = 0;                  // --max-instantiations (0: all)
  const std::vector<RecordedLaunch>* recordedLaunches = nullptr;  // --launch-info
  // The program's other files' host code (sibling_files.h), parsed the first time a value
  // this file leaves open is asked for; unset: not read.
  std::function<const ProgramFacts*(clang::ASTContext&)> programFacts;
  // Called once the file is parsed, before its analysis (the run's sibling summaries take
  // this file's own, sibling_summaries.h); unset: nothing.
  std::function<void(clang::ASTContext&)> parsed;
  // Source ranges (file, first line, last line) that hold Clang errors: a kernel whose
  // body overlaps one is reported as failed rather than analysed on a broken AST.
  struct ErrorSpot {
    std::string file;
    unsigned line = 0;
    std::string message;
  };
  std::vector<ErrorSpot> errors;
};

struct TranslationUnitResult {
  std::vector<KernelRecord> kernels;
  std::vector<AccessSite> accesses;
  std::vector<BranchSite> branches;
  std::vector<BarrierSite> barriers;
  std::vector<PointerParam> pointerParams;
};

TranslationUnitResult analyzeTranslationUnit(clang::ASTContext& context, const TranslationUnitOptions& options);

}  // namespace coalesce::analysis
