// What kernel names say, shared by the analysis (lib/analysis/src/launch_alternatives.cpp: the
// alternatives of one job a host runs) and the report (lib/report/src/variant_level.cpp: the
// naive version a program keeps beside better ones). Benchmark and teaching programs name the
// versions of one job by the job and a word saying how each does it: `transposeNaive`,
// `transposeCoalesced`, `sgemm_shared_mem_block`, `softmax_forward_kernel3`.
#pragma once

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace coalesce::kernel_names {

// The words of an identifier, in lower case: `transposeNoBankConflicts` -> transpose, no,
// bank, conflicts; `softmax_forward_kernel1` -> softmax, forward, kernel, 1.
inline std::vector<std::string> wordsOf(const std::string& name) {
  std::vector<std::string> out;
  std::string word;
  const auto flush = [&] {
    if (!word.empty()) out.push_back(word);
    word.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (!word.empty()) {
      const unsigned char last = static_cast<unsigned char>(name[i - 1]);
      const bool digitEdge = (std::isdigit(c) != 0) != (std::isdigit(last) != 0);
      const bool camel = std::isupper(c) && (std::islower(last) ||
                                             (std::isupper(last) && i + 1 < name.size() &&
                                              std::islower(static_cast<unsigned char>(name[i + 1]))));
      if (digitEdge || camel) flush();
    }
    word += static_cast<char>(std::tolower(c));
  }
  flush();
  return out;
}

inline bool isNumber(const std::string& w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char c) { return std::isdigit(c); });
}

// Words that say how an implementation does its job, not what the job is: the versions,
// techniques and granularities that benchmark and teaching programs name their variants by.
inline bool isVariantWord(const std::string& w) {
  static const std::set<std::string> kWords = {
      "naive", "simple", "basic", "baseline", "reference", "ref", "orig", "original", "opt", "optimized",
      "optimised", "unpadded", "fast", "faster", "fastest", "improved", "better", "new", "old", "v", "ver", "version",
      "alt", "variant", "kernel", "shared", "smem", "shmem", "mem", "memory", "coalesced", "uncoalesced", "non",
      "tiled", "tile", "tiling", "unrolled", "unroll", "vectorized", "vectorised", "vec", "padded", "padding",
      "no", "bank", "conflict", "conflicts", "free", "coarse", "fine", "grained", "diagonal", "warp", "block",
      "thread", "atomic", "atomics", "online", "register", "registers", "reg", "regs", "cub", "cublas",
      "cublaslt", "cudnn", "ldg", "async", "packed", "float4", "loop", "strided", "stride", "grid",
      "cooperative", "coop", "persistent", "global", "texture", "tex"};
  return isNumber(w) || kWords.count(w) > 0;
}

// What a name says its function does: its words without numbers and variant words.
inline std::vector<std::string> jobWords(const std::string& name) {
  std::vector<std::string> out;
  for (std::string& w : wordsOf(name))
    if (!isVariantWord(w)) out.push_back(std::move(w));
  return out;
}

// A kernel record's name without what the report adds to it: namespaces, template arguments,
// an overload's parameter list (`sgm::path_kernel<unsigned int, 1>`, `(anonymous
// namespace)::median_3x3`, `langevin(curandState *, const int)` -> path_kernel, median_3x3,
// langevin), so that two kernels' names compare by what their authors called them.
inline std::string declaredName(std::string name) {
  const std::string anonymous = "(anonymous namespace)::";
  for (size_t at; (at = name.find(anonymous)) != std::string::npos;) name.erase(at, anonymous.size());
  name = name.substr(0, std::min(name.find('('), name.find('<')));
  const size_t scope = name.rfind("::");
  return scope == std::string::npos ? name : name.substr(scope + 2);
}

inline bool sameJobName(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = jobWords(a);
  return !x.empty() && x == jobWords(b);
}

// Names of two versions of one job: the job words of one are all among the other's, which
// may add what its version is (`transposeUnpadded` beside `transpose`, `scan` beside
// `scan_work_efficient`), compared without namespaces or template arguments (declaredName).
// `aggregate_vertical_path` and `aggregate_oblique_path` are two jobs.
inline bool versionsOfOneJob(const std::string& a, const std::string& b) {
  std::vector<std::string> x = jobWords(declaredName(a)), y = jobWords(declaredName(b));
  if (x.size() > y.size()) std::swap(x, y);
  return !x.empty() && std::all_of(x.begin(), x.end(), [&](const std::string& w) {
    return std::find(y.begin(), y.end(), w) != y.end();
  });
}

// A name that calls its function the naive (unoptimised) version: `transposeNaive`,
// `sgemm_naive`, `matmul_tri_naive`, or the version without a technique the program's other
// versions name (`copyDataNonCoalesced` beside `copyDataCoalesced`, `readUncoalesced`,
// `matmulNonTiled`; session 32, blind panel 28: a course's deliberately uncoalesced copy).
// Naive Bayes is an algorithm, not a version.
inline bool namedNaive(const std::string& name) {
  static const std::set<std::string> kTechniques = {"coalesced", "optimized", "optimised", "tiled",   "padded",
                                                    "vectorized", "vectorised", "unrolled", "shared", "cached"};
  const std::vector<std::string> words = wordsOf(name);
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if ((w == "naive" && (i + 1 == words.size() || words[i + 1] != "bayes")) || w == "unoptimized" ||
        w == "unoptimised" || w == "uncoalesced")
      return true;
    if (w == "non" && i + 1 < words.size() && kTechniques.count(words[i + 1])) return true;
  }
  return false;
}

}  // namespace coalesce::kernel_names
