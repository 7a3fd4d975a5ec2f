// libcoalesce_verify_inject.so: loaded into an unmodified CUDA program through
// CUDA_INJECTION64_PATH (the driver calls InitializeInjection() during cuInit). It
// collects CUPTI SASS metrics per instruction (executions, global sectors and their
// ideal, shared wavefronts and their ideal), maps every PC to file:line with the
// cubin kept from the module-loaded callback, and writes a measurements JSON to
// $COALESCE_VERIFY_OUT at process exit.
//
// Environment:
//   COALESCE_VERIFY_OUT            where the JSON goes (required)
//   COALESCE_VERIFY_CUBIN_DIR      if set, every loaded cubin is written there as module_<crc>.cubin
//   COALESCE_VERIFY_LIST_METRICS=1 also record every SASS metric the chip offers
//   COALESCE_VERIFY_QUIET=1        no progress line on stderr
//   COALESCE_VERIFY_PER_PROCESS=1  write to $COALESCE_VERIFY_OUT.<pid> (each process of a program
//                                  that starts others keeps its own file; the CLI sets it)
//   COALESCE_VERIFY_SAMPLING, _KERNEL_REGEX, _LAUNCH_SKIP, _LAUNCH_COUNT, _MAX_CONFIGS: which
//                                  launches are instrumented (coalesce/verify/launch_sampler.h);
//                                  by default the first of each distinct configuration, every one
//
// Collection is enabled on a context only around the launches the sampler picks (lazy
// patching instruments a kernel at its first launch inside an enabled range) and disabled
// before the others, which then run unpatched and unsynchronised. Data is flushed after every
// measured launch (the context is synchronised first), so a program that exits without
// destroying its context loses nothing, and each flush is also kept under the launch's
// configuration (config_counters, for kernels measured in several). Launches from several
// threads are measured one at a time (State::launchMu); a fork()ed child writes nothing.
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "coalesce/verify/launch_sampler.h"
#include "coalesce/verify/measurements.h"

namespace cv = coalesce::verify;

namespace {

// The metrics we want, in order; those the chip does not offer are skipped.
const char* const kWanted[] = {
    cv::metric::kInstExecuted,  cv::metric::kThreadInstExecuted, cv::metric::kGlobalLd,
    cv::metric::kGlobalSt,      cv::metric::kGlobalAtom,         cv::metric::kGlobalRed,
    cv::metric::kSharedLd,      cv::metric::kSharedSt,           cv::metric::kSharedAtom,
    cv::metric::kSectors,       cv::metric::kSectorsIdeal,       cv::metric::kWavefronts,
    cv::metric::kWavefrontsIdeal, cv::metric::kThreadGlobalPredOn, cv::metric::kThreadSharedPredOn,
    // Divergence; COALESCE_VERIFY_NO_BRANCH_METRICS=1 leaves them out.
    cv::metric::kBranchInst,    cv::metric::kBranchUniform,     cv::metric::kBranchDivergent,
    cv::metric::kThreadInstPredOn,
};

bool isBranchMetric(const char* name) {
  const std::string n = name;
  return n == cv::metric::kBranchInst || n == cv::metric::kBranchUniform || n == cv::metric::kBranchDivergent ||
         n == cv::metric::kThreadInstPredOn;
}

struct Cubin {
  std::vector<char> bytes;
};

struct PcKey {
  uint32_t crc;
  std::string function;
  uint32_t pc;
  bool operator<(const PcKey& o) const { return std::tie(crc, function, pc) < std::tie(o.crc, o.function, o.pc); }
};

struct PcData {
  std::map<uint64_t, uint64_t> values;  // metric id -> sum
  // The same, per measured configuration (index into the sampler's configs()): written as
  // config_counters for kernels measured in two or more configurations.
  std::map<size_t, std::map<uint64_t, uint64_t>> byConfig;
  std::string file;
  unsigned line = 0;
  bool sourceResolved = false;
};

struct State {
  std::recursive_mutex mu;
  std::string outPath;
  std::string cubinDir;
  bool listMetrics = false;
  bool quiet = false;
  CUpti_SubscriberHandle subscriber = nullptr;
  bool failed = false;
  bool profilerInitialized = false;
  cv::Measurements result;
  std::map<uint32_t, Cubin> cubinsByCrc;                 // low 32 bits of the cubin CRC
  std::set<uint32_t> configuredDevices;
  std::set<CUcontext> enabledContexts;
  std::map<uint64_t, std::string> metricNames;           // id -> name
  std::vector<CUpti_SassMetrics_Config> configs;
  std::map<PcKey, PcData> pcs;
  bool written = false;
  bool soft = false;  // failures are notes, not fatal (the context-creation attempt)
  std::optional<cv::LaunchSampler> sampler;
  bool sampleAll = false;
  cv::SamplingMode samplingMode = cv::SamplingMode::Config;
  bool kernelRegexGiven = false;
  // Set once a driver-level launch callback came nested in a runtime-level one: from then on the
  // driver level decides, and the runtime level no longer enables collection in advance.
  bool driverDecides = false;
  bool noteEnabled = false;
  // Held from a launch's outermost enter callback to its exit on the thread that launches, so
  // that launches from several threads are measured one at a time: enabling and pausing
  // collection is per context, and a measured launch's counters are flushed after it completes.
  std::recursive_mutex launchMu;
  bool forkedChild = false;  // this process is a fork() of the one that loaded the collector
  bool perProcess = false;   // COALESCE_VERIFY_PER_PROCESS=1: write to OUT.<pid>
};

State& state() {
  static State* s = new State;  // never destroyed: atexit handlers may run after static destructors
  return *s;
}

thread_local int launchDepth = 0;

// The launch in progress on this thread (between the outermost enter and exit callbacks).
struct CurrentLaunch {
  bool decided = false;  // a driver-level callback asked the sampler
  bool measure = false;
  bool haveConfig = false;
  cv::LaunchConfig config;
  std::optional<size_t> configIndex;  // where its configuration is in the sampler's configs()
};
thread_local CurrentLaunch current;

std::string cuptiText(CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  return s ? s : "unknown CUPTI error";
}

void writeResult();

// Records the first failure, tells the user in one line, and writes the JSON at once
// (a later crash of the program would otherwise lose the reason).
void fail(cv::ErrorKind kind, const std::string& message) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.failed) return;
  if (s.soft) {
    s.result.notes.push_back("deferred to the first launch: " + message);
    return;
  }
  s.failed = true;
  s.result.status = "error";
  s.result.errorKind = kind;
  s.result.error = message;
  std::fprintf(stderr, "coalesce-verify: error: %s\n", message.c_str());
  writeResult();
  s.written = false;  // write again at exit, with whatever else was learnt
}

// errorKindForCuptiResult() (no CUPTI headers there) uses these values.
static_assert(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES == 35 && CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES == 40 &&
              CUPTI_ERROR_NOT_SUPPORTED == 27 && CUPTI_ERROR_INVALID_DEVICE == 2);

// One line per cause, naming what the user can do.
bool check(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return true;
  fail(cv::errorKindForCuptiResult(static_cast<int>(r)), cv::cuptiFailureMessage(static_cast<int>(r), what, cuptiText(r)));
  return false;
}

uint32_t crcOf(const void* cubin, size_t size) {
  CUpti_GetCubinCrcParams p = {};
  p.size = CUpti_GetCubinCrcParamsSize;
  p.cubin = cubin;
  p.cubinSize = size;
  if (cuptiGetCubinCrc(&p) != CUPTI_SUCCESS) return 0;
  return static_cast<uint32_t>(p.cubinCrc);
}

void onModuleLoaded(const CUpti_ResourceData* rd) {
  const auto* md = static_cast<const CUpti_ModuleResourceData*>(rd->resourceDescriptor);
  if (!md || !md->pCubin || md->cubinSize == 0) return;
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  const uint32_t crc = crcOf(md->pCubin, md->cubinSize);
  Cubin& c = s.cubinsByCrc[crc];
  c.bytes.assign(md->pCubin, md->pCubin + md->cubinSize);
  if (!s.cubinDir.empty()) {
    std::ofstream f(s.cubinDir + "/module_" + std::to_string(crc) + ".cubin", std::ios::binary);
    f.write(c.bytes.data(), static_cast<std::streamsize>(c.bytes.size()));
  }
}

// The cubin a record belongs to: by CRC, else the only cubin that names the function.
const Cubin* cubinFor(uint32_t crc, const std::string& function) {
  State& s = state();
  auto it = s.cubinsByCrc.find(crc);
  if (it != s.cubinsByCrc.end()) return &it->second;
  const Cubin* found = nullptr;
  for (auto& [k, c] : s.cubinsByCrc) {
    const std::string_view hay(c.bytes.data(), c.bytes.size());
    if (hay.find(function) != std::string_view::npos) {
      if (found) return nullptr;  // ambiguous
      found = &c;
    }
  }
  return found;
}

void resolveSource(const PcKey& key, PcData& d) {
  d.sourceResolved = true;
  const Cubin* c = cubinFor(key.crc, key.function);
  if (!c) return;
  CUpti_GetSassToSourceCorrelationParams p = {};
  p.size = CUpti_GetSassToSourceCorrelationParamsSize;
  p.cubin = c->bytes.data();
  p.cubinSize = c->bytes.size();
  p.functionName = key.function.c_str();
  p.pcOffset = key.pc;
  if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS) return;
  std::string dir = p.dirName ? p.dirName : "";
  std::string file = p.fileName ? p.fileName : "";
  if (!file.empty() && file.front() != '/' && !dir.empty()) file = dir + (dir.back() == '/' ? "" : "/") + file;
  d.file = file;
  d.line = p.lineNumber;
  std::free(p.fileName);
  std::free(p.dirName);
}

bool initProfiler() {
  State& s = state();
  if (s.profilerInitialized) return true;
  CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  if (!check(cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize")) return false;
  s.profilerInitialized = true;
  return true;
}

bool configureDevice(CUcontext ctx, uint32_t deviceIndex) {
  State& s = state();
  if (s.configuredDevices.count(deviceIndex)) return true;
  CUdevice dev = 0;
  if (cuDeviceGet(&dev, static_cast<int>(deviceIndex)) != CUDA_SUCCESS) {
    fail(cv::ErrorKind::NoGpu, "cannot open CUDA device " + std::to_string(deviceIndex));
    return false;
  }
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, dev);
  int major = 0, minor = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  s.result.device.name = name;
  s.result.device.sm = major * 10 + minor;

  CUpti_Profiler_DeviceSupported_Params sp = {CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  sp.cuDevice = dev;
  sp.api = CUPTI_PROFILER_SASS_METRICS;
  if (!check(cuptiProfilerDeviceSupported(&sp), "cuptiProfilerDeviceSupported")) return false;
  if (sp.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::string why;
    if (sp.architecture == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " architecture";
    if (sp.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " vGPU";
    if (sp.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED) why += " vGPU(profiling disabled)";
    if (sp.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " confidential-compute";
    if (sp.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " SLI";
    if (sp.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " CMP";
    if (sp.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED) why += " WSL";
    fail(cv::ErrorKind::UnsupportedDevice, std::string("unsupported device: ") + name + " (sm_" +
                                               std::to_string(major * 10 + minor) +
                                               ") cannot collect CUPTI SASS metrics; unsupported:" +
                                               (why.empty() ? std::string(" unknown reason") : why));
    return false;
  }

  CUpti_Device_GetChipName_Params cp = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  cp.deviceIndex = deviceIndex;
  if (!check(cuptiDeviceGetChipName(&cp), "cuptiDeviceGetChipName")) return false;
  s.result.device.chip = cp.pChipName ? cp.pChipName : "";

  CUpti_SassMetrics_GetNumOfMetrics_Params np = {CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  np.pChipName = cp.pChipName;
  if (!check(cuptiSassMetricsGetNumOfMetrics(&np), "cuptiSassMetricsGetNumOfMetrics")) return false;
  std::vector<CUpti_SassMetrics_MetricDetails> all(np.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params gp = {CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  gp.pChipName = cp.pChipName;
  gp.numOfMetrics = all.size();
  gp.pMetricsList = all.data();
  if (!check(cuptiSassMetricsGetMetrics(&gp), "cuptiSassMetricsGetMetrics")) return false;
  std::map<std::string, uint64_t> offered;
  for (const auto& m : all) {
    if (!m.pMetricName) continue;
    offered[m.pMetricName] = m.metricId;
    if (s.listMetrics)
      s.result.availableMetrics.push_back(std::string(m.pMetricName) + " : " +
                                          (m.pMetricDescription ? m.pMetricDescription : ""));
  }
  s.configs.clear();
  s.metricNames.clear();
  s.result.metricsCollected.clear();
  const char* noBranch = std::getenv("COALESCE_VERIFY_NO_BRANCH_METRICS");
  const bool skipBranch = noBranch && *noBranch && std::string(noBranch) != "0";
  for (const char* want : kWanted) {
    if (skipBranch && isBranchMetric(want)) continue;
    auto it = offered.find(want);
    if (it == offered.end()) continue;
    CUpti_SassMetrics_Config c = {};
    c.metricId = it->second;
    // One counter per instruction for the whole GPU: per-SM counters (GRANULARITY_SM) made the
    // instrumented runs of Rodinia gaussian and nw 2.2 to 2.4 times slower on the H200 (realcode.md).
    c.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    s.configs.push_back(c);
    s.metricNames[it->second] = want;
    s.result.metricsCollected.push_back(want);
  }
  if (!offered.count(cv::metric::kInstExecuted)) {
    fail(cv::ErrorKind::UnsupportedDevice, std::string("unsupported device: chip ") + s.result.device.chip +
                                               " offers no " + cv::metric::kInstExecuted + " SASS metric");
    return false;
  }
  CUpti_SassMetricsSetConfig_Params scp = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  scp.pConfigs = s.configs.data();
  scp.numOfMetricConfig = s.configs.size();
  scp.deviceIndex = deviceIndex;
  if (!check(cuptiSassMetricsSetConfig(&scp), "cuptiSassMetricsSetConfig")) return false;
  s.configuredDevices.insert(deviceIndex);
  (void)ctx;
  return true;
}

// Sets up collection on `ctx` once: profiler, device configuration, lazy patching.
void ensureEnabled(CUcontext ctx, const char* where) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.failed || !ctx || s.enabledContexts.count(ctx)) return;
  if (!initProfiler()) return;
  uint32_t deviceIndex = 0;
  if (!check(cuptiGetDeviceId(ctx, &deviceIndex), "cuptiGetDeviceId")) return;
  if (!configureDevice(ctx, deviceIndex)) return;
  CUpti_SassMetricsEnable_Params ep = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  ep.ctx = ctx;
  ep.enableLazyPatching = 1;
  if (!check(cuptiSassMetricsEnable(&ep), "cuptiSassMetricsEnable")) return;
  s.enabledContexts.insert(ctx);
  if (!s.noteEnabled) s.result.notes.push_back(std::string("collection enabled at ") + where);
  s.noteEnabled = true;
}

// Adds the counters since the last flush to the totals, and to configuration `config`'s when
// known (the counters are reset by each flush, so they belong to the launch just measured).
void flush(CUcontext ctx, std::optional<size_t> config) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.failed || !s.enabledContexts.count(ctx)) return;
  CUpti_SassMetricsGetDataProperties_Params dp = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  dp.ctx = ctx;
  if (!check(cuptiSassMetricsGetDataProperties(&dp), "cuptiSassMetricsGetDataProperties")) return;
  if (dp.numOfPatchedInstructionRecords == 0 || dp.numOfInstances == 0) return;
  std::vector<CUpti_SassMetrics_Data> data(dp.numOfPatchedInstructionRecords);
  std::vector<CUpti_SassMetrics_InstanceValue> values(dp.numOfPatchedInstructionRecords * dp.numOfInstances);
  for (size_t i = 0; i < data.size(); ++i) {
    data[i] = {};
    data[i].structSize = sizeof(CUpti_SassMetrics_Data);
    data[i].pInstanceValues = &values[i * dp.numOfInstances];
  }
  CUpti_SassMetricsFlushData_Params fp = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
  fp.ctx = ctx;
  fp.numOfPatchedInstructionRecords = data.size();
  fp.numOfInstances = dp.numOfInstances;
  fp.pMetricsData = data.data();
  if (!check(cuptiSassMetricsFlushData(&fp), "cuptiSassMetricsFlushData")) return;
  for (auto& rec : data) {
    PcKey key{rec.cubinCrc, rec.functionName ? rec.functionName : "", rec.pcOffset};
    PcData& d = s.pcs[key];
    for (size_t k = 0; k < dp.numOfInstances; ++k) {
      d.values[rec.pInstanceValues[k].metricId] += rec.pInstanceValues[k].value;
      if (config) d.byConfig[*config][rec.pInstanceValues[k].metricId] += rec.pInstanceValues[k].value;
    }
    if (!d.sourceResolved) resolveSource(key, d);
    std::free(const_cast<char*>(rec.functionName));  // CUPTI allocates it for the caller
  }
}

void disable(CUcontext ctx) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (!s.enabledContexts.count(ctx)) return;
  flush(ctx, std::nullopt);  // normally nothing: each measured launch was flushed when it completed
  CUpti_SassMetricsDisable_Params p = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  p.ctx = ctx;
  if (cuptiSassMetricsDisable(&p) == CUPTI_SUCCESS) s.result.droppedRecords += p.numOfDroppedRecords;
  s.enabledContexts.erase(ctx);
}

std::map<std::string, uint64_t> namedMetrics(const std::map<uint64_t, uint64_t>& values) {
  State& s = state();
  std::map<std::string, uint64_t> out;
  for (const auto& [id, v] : values) {
    auto it = s.metricNames.find(id);
    out[it == s.metricNames.end() ? "metric_" + std::to_string(id) : it->second] += v;
  }
  return out;
}

void buildInstructions() {
  State& s = state();
  s.result.instructions.clear();
  s.result.configCounters.clear();
  // Kernels measured in two or more configurations: their counters are also written per configuration.
  std::map<std::string, std::set<size_t>> configsOf;
  for (const auto& [key, d] : s.pcs)
    for (const auto& [config, values] : d.byConfig) configsOf[key.function].insert(config);
  for (const auto& [key, d] : s.pcs) {
    if (configsOf[key.function].size() >= 2)
      for (const auto& [config, values] : d.byConfig)
        s.result.configCounters.push_back(
            {static_cast<uint32_t>(config), static_cast<uint32_t>(s.result.instructions.size()), namedMetrics(values)});
    cv::MeasuredInstruction in;
    in.moduleCrc = key.crc;
    in.function = key.function;
    in.demangled = cv::demangledName(key.function);
    in.pc = key.pc;
    in.file = d.file;
    in.line = d.line;
    in.metrics = namedMetrics(d.values);
    s.result.instructions.push_back(std::move(in));
  }
  std::stable_sort(s.result.configCounters.begin(), s.result.configCounters.end(),
                   [](const cv::ConfigCounters& a, const cv::ConfigCounters& b) { return a.config < b.config; });
}

// Where this process writes: $COALESCE_VERIFY_OUT, or with COALESCE_VERIFY_PER_PROCESS=1 (what
// the CLI sets) $COALESCE_VERIFY_OUT.<pid>, so that every process of a program that starts
// others (a script, a launcher, an MPI-style fan-out) keeps its own measurements.
std::string outputPath() {
  State& s = state();
  return s.perProcess ? s.outPath + "." + std::to_string(::getpid()) : s.outPath;
}

void writeResult() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  // A fork()ed child holds a copy of its parent's counters, which the parent writes itself.
  if (s.written || s.outPath.empty() || s.forkedChild) return;
  buildInstructions();
  if (s.sampler) {
    s.result.sampling = cv::toString(s.samplingMode);
    s.result.launchesMeasured = s.sampler->measured();
    s.result.configsOverCap = s.sampler->configsOverCap();
    s.result.launchConfigs = s.sampler->configs();
  }
  const std::string out = outputPath();
  const std::string tmp = out + ".tmp";
  {
    std::ofstream f(tmp);
    if (!f) {
      std::fprintf(stderr, "coalesce-verify: error: cannot write %s\n", out.c_str());
      return;
    }
    f << cv::toJson(s.result);
  }
  std::rename(tmp.c_str(), out.c_str());
  s.written = true;
}

bool isLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId id) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunch:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: return true;
      default: return false;
    }
  }
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (id) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000: return true;
      default: return false;
    }
  }
  return false;
}

std::string hexBytes(const void* p, size_t n) {
  static const char* const digits = "0123456789abcdef";
  std::string out;
  const auto* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; ++i) {
    out += digits[b[i] >> 4];
    out += digits[b[i] & 15];
  }
  return out;
}

// Each argument's bytes, in parameter order, as the driver sees them. The runtime launches
// through library-managed kernels (a CUkernel passed where a CUfunction goes, CUDA 12 and
// later), whose parameters cuFuncGetParamInfo does not know: cuKernelGetParamInfo does.
void readArguments(CUfunction f, void** params, cv::LaunchConfig& c) {
  if (!f || !params) return;
  size_t probeOffset = 0, probeSize = 0;
  const bool asKernel = cuFuncGetParamInfo(f, 0, &probeOffset, &probeSize) != CUDA_SUCCESS;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    const CUresult r = asKernel ? cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), i, &offset, &size)
                                : cuFuncGetParamInfo(f, i, &offset, &size);
    if (r != CUDA_SUCCESS) break;
    if (!params[i]) return;  // not what the API promises: leave the arguments out
    c.args += hexBytes(params[i], size);
    c.argSizes.push_back(static_cast<uint32_t>(size));
  }
}

template <typename P>
void fromDriverLaunch(const P* p, cv::LaunchConfig& c) {
  c.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  c.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  c.sharedBytes = p->sharedMemBytes;
  readArguments(p->f, p->kernelParams, c);
}

// The configuration of a launch from its callback's parameters; nullopt for APIs whose
// parameters are not read here (the collector then measures the launch, as before sampling).
std::optional<cv::LaunchConfig> configOf(CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                         const CUpti_CallbackData* info) {
  cv::LaunchConfig c;
  c.kernel = info->symbolName ? info->symbolName : "";
  const void* params = info->functionParams;
  if (!params) return std::nullopt;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (id) {
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
        fromDriverLaunch(static_cast<const cuLaunchKernel_params*>(params), c);
        return c;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
        fromDriverLaunch(static_cast<const cuLaunchKernel_ptsz_params*>(params), c);
        return c;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
        fromDriverLaunch(static_cast<const cuLaunchCooperativeKernel_params*>(params), c);
        return c;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
        fromDriverLaunch(static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params), c);
        return c;
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
        if (!p->config) return std::nullopt;
        c.grid = {p->config->gridDimX, p->config->gridDimY, p->config->gridDimZ};
        c.block = {p->config->blockDimX, p->config->blockDimY, p->config->blockDimZ};
        c.sharedBytes = p->config->sharedMemBytes;
        readArguments(p->f, p->kernelParams, c);
        return c;
      }
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch:
      case CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz: {
        // A graph's kernels are not visible here: the graph is one configuration.
        const auto* p = static_cast<const cuGraphLaunch_params*>(params);
        c.kernel = "(graph)";
        c.args = hexBytes(&p->hGraph, sizeof p->hGraph);
        return c;
      }
      default: return std::nullopt;
    }
  }
  switch (id) {  // runtime: no argument sizes here; the nested driver callback has them
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000: {
      const auto* p = static_cast<const cudaLaunchKernel_v7000_params*>(params);
      c.grid = {p->gridDim.x, p->gridDim.y, p->gridDim.z};
      c.block = {p->blockDim.x, p->blockDim.y, p->blockDim.z};
      c.sharedBytes = static_cast<uint32_t>(p->sharedMem);
      return c;
    }
    default: return std::nullopt;
  }
}

// Stops collection on `ctx` so that the next launch runs unpatched.
void pauseCollection(CUcontext ctx) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.enabledContexts.count(ctx)) disable(ctx);
}

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* cbdata) {
  State& s = state();
  if (s.forkedChild) return;  // CUDA is not usable after fork(); leave whatever the child does alone
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* rd = static_cast<const CUpti_ResourceData*>(cbdata);
    if (id == CUPTI_CBID_RESOURCE_MODULE_LOADED) onModuleLoaded(rd);
    else if (id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      // A first attempt; if CUPTI refuses inside this callback, the launch retries.
      std::lock_guard<std::recursive_mutex> lock(s.mu);
      s.soft = true;
      ensureEnabled(rd->context, "context creation");
      s.soft = false;
    }
    else if (id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) disable(rd->context);
    return;
  }
  if (!isLaunch(domain, id)) return;
  const auto* info = static_cast<const CUpti_CallbackData*>(cbdata);
  CUcontext ctx = info->context;
  if (!ctx) cuCtxGetCurrent(&ctx);
  if (info->callbackSite == CUPTI_API_ENTER) {
    const int depth = launchDepth++;
    if (depth == 0) {
      s.launchMu.lock();  // released at this launch's outermost exit, below
      current = CurrentLaunch{};
      std::lock_guard<std::recursive_mutex> lock(s.mu);
      // Until the driver level is known to decide, enable in advance (measure, as before sampling).
      if (!s.driverDecides || s.sampleAll) ensureEnabled(ctx, "kernel launch");
    }
    std::optional<cv::LaunchConfig> config = configOf(domain, id, info);
    if (!config) return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      current.config = *config;
      current.haveConfig = true;
      return;
    }
    std::lock_guard<std::recursive_mutex> lock(s.mu);
    if (depth > 0) s.driverDecides = true;
    if (s.failed || !s.sampler) return;
    current.decided = true;
    // The demangled name only serves --kernel-name: not demangled at every launch without one.
    current.measure = s.sampler->onLaunch(*config, s.kernelRegexGiven ? cv::demangledName(config->kernel) : "");
    current.configIndex = s.sampler->lastConfigIndex();
    if (current.measure) ensureEnabled(ctx, "kernel launch");
    else pauseCollection(ctx);
    return;
  }
  if (--launchDepth != 0) return;
  struct Release {
    std::recursive_mutex& mu;
    ~Release() { mu.unlock(); }
  } release{s.launchMu};
  bool measured = false;
  {
    std::lock_guard<std::recursive_mutex> lock(s.mu);
    ++s.result.kernelLaunches;
    const bool enabled = !s.failed && ctx && s.enabledContexts.count(ctx);
    measured = current.decided ? current.measure && enabled : enabled;
    if (!current.decided && s.sampler) {
      cv::LaunchConfig c = current.haveConfig ? current.config : cv::LaunchConfig{};
      if (c.kernel.empty()) c.kernel = info->symbolName ? info->symbolName : "(unknown)";
      s.sampler->record(c, measured);
      current.configIndex = s.sampler->lastConfigIndex();
    }
  }
  if (!measured) return;
  // Counters are only complete once the kernel has finished.
  cuCtxSynchronize();
  flush(ctx, current.configIndex);
}

void atExit() {
  State& s = state();
  if (s.forkedChild) return;  // before locking: the fork may have copied a lock another thread held
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (!s.failed && s.pcs.empty() && s.result.kernelLaunches == 0)
    s.result.notes.push_back("no kernel was launched");
  writeResult();
  if (!s.quiet && !s.failed)
    std::fprintf(stderr, "coalesce-verify: %zu instructions from %llu of %llu kernel launches written to %s\n",
                 s.result.instructions.size(), static_cast<unsigned long long>(s.result.launchesMeasured),
                 static_cast<unsigned long long>(s.result.kernelLaunches), outputPath().c_str());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::atomic<bool> once{false};
  if (once.exchange(true)) return 1;
  State& s = state();
  const char* out = std::getenv("COALESCE_VERIFY_OUT");
  if (!out || !*out) {
    std::fprintf(stderr, "coalesce-verify: error: COALESCE_VERIFY_OUT is not set; nothing will be collected\n");
    return 1;
  }
  s.outPath = out;
  if (const char* d = std::getenv("COALESCE_VERIFY_CUBIN_DIR")) s.cubinDir = d;
  if (const char* l = std::getenv("COALESCE_VERIFY_LIST_METRICS")) s.listMetrics = std::strcmp(l, "0") != 0;
  if (const char* q = std::getenv("COALESCE_VERIFY_QUIET")) s.quiet = std::strcmp(q, "0") != 0;
  if (const char* p = std::getenv("COALESCE_VERIFY_PER_PROCESS")) s.perProcess = std::strcmp(p, "0") != 0;
  std::atexit(atExit);
  // A child of fork() cannot use the parent's CUDA context (CUDA does not support it) and must
  // not write the parent's counters as its own; a child that execs a CUDA program loads a fresh
  // collector, which writes its own file (per process, above).
  pthread_atfork(nullptr, nullptr, [] { state().forkedChild = true; });
  try {
    const cv::SamplingOptions sampling = cv::SamplingOptions::fromEnvironment();
    s.sampleAll = sampling.mode == cv::SamplingMode::All;
    s.samplingMode = sampling.mode;
    s.kernelRegexGiven = !sampling.kernelRegex.empty();
    s.sampler.emplace(sampling);
  } catch (const std::exception& e) {  // a bad value or regex: say so, collect nothing
    fail(cv::ErrorKind::CuptiError, std::string("launch selection: ") + e.what());
    return 1;
  }

  CUptiResult r = cuptiSubscribe(&s.subscriber, reinterpret_cast<CUpti_CallbackFunc>(callback), nullptr);
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    fail(cv::ErrorKind::CuptiError,
         "another CUPTI client is already attached to this process (a profiler or the program itself); "
         "only one subscriber is allowed");
    return 1;
  }
  if (!check(r, "cuptiSubscribe")) return 1;
  if (!check(cuptiEnableDomain(1, s.subscriber, CUPTI_CB_DOMAIN_RESOURCE), "cuptiEnableDomain(resource)")) return 1;
  for (CUpti_CallbackId id = 0; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id)
    if (isLaunch(CUPTI_CB_DOMAIN_DRIVER_API, id)) cuptiEnableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  for (CUpti_CallbackId id = 0; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id)
    if (isLaunch(CUPTI_CB_DOMAIN_RUNTIME_API, id)) cuptiEnableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
  return 1;
}
