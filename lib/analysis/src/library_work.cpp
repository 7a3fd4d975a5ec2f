#include "library_work.h"

#include <array>

namespace coalesce::analysis {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Words in the name of a call that prepares or asks rather than computes.
bool preparesOrAsks(std::string_view name) {
  constexpr std::array<std::string_view, 26> words = {
      "Create",    "Destroy",  "Set",     "Get",        "Version",   "Init",      "Shutdown",
      "Alloc",     "Free",     "Workspace", "Logger",   "Status",    "Heuristic", "Preference",
      "Desc",      "Layout",   "Attribute", "BufferSize", "bufferSize", "Plan",    "Handle",
      "Stream",    "Property", "Estimate", "Finalize",  "Abort"};
  for (std::string_view w : words)
    if (contains(name, w)) return true;
  return false;
}

}  // namespace

LibraryWork libraryWorkOf(std::string_view name) {
  // cuFFT and cuRAND name their work with one verb each.
  if (startsWith(name, "cufftExec") || startsWith(name, "cufftXtExec")) return LibraryWork::Always;
  if (startsWith(name, "curandGenerate")) return LibraryWork::Always;
  // NCCL: the collectives and point-to-point calls.
  if (startsWith(name, "nccl")) {
    constexpr std::array<std::string_view, 7> ops = {"ncclAllReduce", "ncclBroadcast", "ncclReduce", "ncclAllGather",
                                                     "ncclReduceScatter", "ncclSend", "ncclRecv"};
    for (std::string_view op : ops)
      if (name == op) return LibraryWork::Always;
    return LibraryWork::None;
  }
  // The routines of the dense, sparse, solver, DNN and tensor libraries, less their set-up.
  for (std::string_view prefix : {"cublas", "cusparse", "cusolver", "cudnn", "cutensor"})
    if (startsWith(name, prefix))
      return name.size() > prefix.size() && !preparesOrAsks(name) ? LibraryWork::Always : LibraryWork::None;
  // CUB's device-wide algorithms (cub::DeviceReduce::Sum, cub::DeviceRadixSort::SortPairs):
  // their first call with a null buffer only asks for the temporary size, the second runs;
  // both sit together, so counting the calls counts the runs twice at most.
  if (startsWith(name, "cub::Device")) return LibraryWork::Always;
  if (startsWith(name, "thrust::")) {
    constexpr std::array<std::string_view, 20> algorithms = {
        "sort",          "sort_by_key",  "stable_sort",    "stable_sort_by_key", "reduce",
        "reduce_by_key", "transform",    "transform_reduce", "inclusive_scan",   "exclusive_scan",
        "copy_if",       "remove_if",    "unique",         "for_each",           "count_if",
        "min_element",   "max_element",  "gather",         "scatter",            "inner_product"};
    const std::string_view last = name.substr(name.rfind("::") + 2);
    for (std::string_view a : algorithms)
      if (last == a) return LibraryWork::OnDeviceData;
  }
  return LibraryWork::None;
}

}  // namespace coalesce::analysis
