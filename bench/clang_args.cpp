// bench/clang_args: the exact Clang command line coalesce-lint parses each file with, for
// the benchmark's clang++ side. Reuses collectJobs/buildClangArguments, so the two sides
// cannot drift apart.
//
//   clang_args OUTDIR [--cuda-path P] [--builtin-cuda] [--arch A] INPUT... [-- EXTRA...]
//
// The tool serves some files from memory (the prelude, the shim, the patched
// driver_types.h of the toolkit); they are written under OUTDIR and an -ivfsoverlay file
// maps them back to the paths the tool uses, so clang++ reads the same bytes at the same
// names. Prints one JSON object per job: {"file", "directory", "arguments"}.
// Built by bench/run_bench.py against the static libraries of the build folder.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "coalesce/analysis/builtin_files.h"
#include "coalesce/analysis/command_line.h"
#include "coalesce/analysis/cuda_toolchain.h"

namespace fs = std::filesystem;
using namespace coalesce;
using namespace coalesce::analysis;

namespace {

std::string quote(const std::string& s) {  // a JSON string
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: clang_args OUTDIR [--cuda-path P] [--builtin-cuda] [--arch A] INPUT... [-- EXTRA...]\n";
    return 2;
  }
  const fs::path out = fs::absolute(argv[1]);
  AnalysisRequest request;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      request.extraArgs.assign(argv + i + 1, argv + argc);
      break;
    }
    if (a == "--cuda-path" && i + 1 < argc) request.cudaPath = argv[++i];
    else if (a == "--arch" && i + 1 < argc) request.gpuArch = argv[++i];
    else if (a == "--builtin-cuda") request.builtinCuda = true;
    else request.inputs.push_back(a);
  }
  const Toolchain tc = detectToolchain(request);
  std::vector<FileRecord> failures;
  const std::vector<CompileJob> jobs = collectJobs(request, tc, failures);
  for (const FileRecord& f : failures) std::cerr << "clang_args: " << f.path << ": " << f.error << "\n";

  // virtual path -> contents, as makeOverlayFileSystem serves them
  std::vector<std::pair<std::string, std::string>> served;
  for (const BuiltinFile& f : builtinFiles()) served.emplace_back(builtinPath(f.path), std::string(f.contents));
  if (tc.cudaPath) {
    const fs::path dt = fs::path(*tc.cudaPath) / "include" / "driver_types.h";
    if (auto patched = addLegacyDevicePropFields(readFile(dt))) served.emplace_back(dt.string(), *patched);
  }
  const fs::path store = out / "served";
  fs::create_directories(store);
  std::ofstream yaml(out / "overlay.yaml");
  yaml << "{ 'version': 0, 'use-external-names': false, 'roots': [\n";
  for (size_t i = 0; i < served.size(); ++i) {
    const fs::path real = store / std::to_string(i);
    std::ofstream(real, std::ios::binary) << served[i].second;
    yaml << "  { 'type': 'file', 'name': " << quote(served[i].first)
         << ", 'external-contents': " << quote(real.string()) << " }" << (i + 1 < served.size() ? "," : "") << "\n";
  }
  yaml << "] }\n";
  yaml.close();

  for (const CompileJob& job : jobs) {
    std::vector<std::string> args = job.arguments;
    args[0] = "clang++-19";
    args.insert(args.begin() + 1, {"-ivfsoverlay", (out / "overlay.yaml").string()});
    std::cout << "{\"file\": " << quote(job.file) << ", \"directory\": " << quote(job.directory)
              << ", \"arguments\": [";
    for (size_t i = 0; i < args.size(); ++i) std::cout << (i ? ", " : "") << quote(args[i]);
    std::cout << "]}\n";
  }
  return failures.empty() ? 0 : 1;
}
