// Fix-its as text (docs/fixes.md): applying a set of edits to a file's contents, mapping a
// position of the file through them, and the clang-apply-replacements YAML that
// `--export-fixes` writes. Plain text work on the records' TextEdit; no Clang.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "coalesce/report/finding.h"
#include "coalesce/report/source_reader.h"
#include "coalesce/records/records.h"

namespace coalesce::report {

struct EditedText {
  std::string text;                 // the contents with the applied edits
  std::vector<TextEdit> applied;    // in increasing offset, each once
  std::vector<TextEdit> conflicts;  // left out: overlapping an edit applied before, or past the end
};

// Applies `edits` (all of one file) to `text`: identical edits once; an edit that overlaps
// one already taken (in the order given) or reaches past the end of the text is left out and
// listed as a conflict. Two insertions at the same offset overlap.
EditedText applyEdits(std::string_view text, const std::vector<TextEdit>& edits);

// Where the 1-based (line, column) of `original` lies once `applied` (applyEdits's, sorted)
// are made: the position moves with the text before it; a position inside a replaced range
// goes to the range's start. Columns are bytes, as Clang's.
SourceLocation mapThroughEdits(const SourceLocation& at, std::string_view original,
                               const std::vector<TextEdit>& applied);

// The findings' offered fixes (SourceFix::Check::Offered) as clang-apply-replacements reads
// them, in clang-tidy's --export-fixes format: MainSourceFile, then one Diagnostics entry per
// finding (DiagnosticName, DiagnosticMessage with its Message, FilePath, FileOffset and
// Replacements of FilePath, Offset, Length, ReplacementText), Level, BuildDirectory; paths
// absolute, as clang-tidy writes them.
// FileOffset is the finding's offset in the text `readSource` gives.
void writeFixesYaml(std::ostream& out, const std::string& mainSourceFile, const std::vector<Finding>& findings,
                    const SourceReader& readSource);

// The 1-based (line, column) of a byte offset of `text`, and back (npos past the text).
SourceLocation locationOfOffset(std::string_view text, size_t offset);
size_t offsetOfLocation(std::string_view text, unsigned line, unsigned column);

}  // namespace coalesce::report
