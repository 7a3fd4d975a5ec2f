// Clang's errors for one parse, as plain records (lib/analysis/src/analyze.cpp): the file's
// status, and the kernels whose bodies they fall in, are decided from them.
#pragma once

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

#include <string>
#include <vector>

#include "kernel_analyzer.h"

namespace coalesce::analysis {

// Collects Clang's errors as plain records: the file's status and the kernels whose
// bodies they fall in are decided from them.
class ErrorCollector : public clang::DiagnosticConsumer {
 public:
  std::vector<TranslationUnitOptions::ErrorSpot> errors;
  std::vector<std::string> messages;  // "file:line:col: error: text", first few

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    TranslationUnitOptions::ErrorSpot spot;
    spot.message = text.str().str();
    std::string where;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      const clang::SourceManager& sm = info.getSourceManager();
      clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(info.getLocation()));
      if (p.isValid()) {
        spot.file = p.getFilename();
        spot.line = p.getLine();
        where = spot.file + ":" + std::to_string(p.getLine()) + ":" + std::to_string(p.getColumn()) + ": ";
      }
    }
    if (messages.size() < 5)
      messages.push_back(where + (level == clang::DiagnosticsEngine::Fatal ? "fatal error: " : "error: ") + spot.message);
    errors.push_back(std::move(spot));
  }
};

}  // namespace coalesce::analysis
