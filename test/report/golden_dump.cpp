// Prints the golden report in one format on stdout: what the SARIF schema test validates.
#include <cstring>
#include <iostream>

#include "coalesce/report/json_writer.h"
#include "coalesce/report/sarif_writer.h"
#include "coalesce/report/text_writer.h"
#include "golden_fixture.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: report_golden_dump text|json|sarif\n";
    return 2;
  }
  const coalesce::AnalysisResult analysis = coalesce::test::goldenAnalysis();
  const coalesce::report::Report report = coalesce::test::goldenReport(analysis);
  if (std::strcmp(argv[1], "text") == 0) coalesce::report::writeText(std::cout, report);
  else if (std::strcmp(argv[1], "json") == 0) coalesce::report::writeJson(std::cout, report);
  else if (std::strcmp(argv[1], "sarif") == 0) coalesce::report::writeSarif(std::cout, report);
  else return 2;
  return 0;
}
