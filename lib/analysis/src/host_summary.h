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

}  // namespace coalesce::analysis
