// A HostSummary (program_facts.h) of one parsed file: the calls its host code makes with the
// arguments' values, and the values it writes to struct members.
#pragma once

#include <clang/AST/ASTContext.h>

#include "program_facts.h"

namespace coalesce::analysis {

HostSummary summarizeHostCode(clang::ASTContext& ctx);

// A record's name as every file spells it: its tag, or the typedef of an anonymous struct
// (`typedef struct { ... } BPNN;`); empty when it has neither.
std::string recordName(const clang::RecordDecl* r);

// A function template instance's arguments as every file prints them (canonical types:
// `<__half, 4>` whatever typedef a file spelled), "" for a function that is no instance: what
// matches a launch in one file with the instance another file defines
// (HostSummary::LaunchConfig::templateArgs).
std::string templateArgumentsText(const clang::FunctionDecl* f, const clang::ASTContext& ctx);

}  // namespace coalesce::analysis
