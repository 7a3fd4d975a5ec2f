#include "golden_fixture.h"

#include <stdexcept>
#include <tuple>

#include "coalesce/model/access_model.h"
#include "coalesce/report/filter.h"
#include "coalesce/report/rule_registry.h"

namespace coalesce::test {

using namespace coalesce::model;

std::string goldenDataDir() { return std::string(COALESCE_REPORT_TEST_DATA) + "/golden"; }

namespace {

struct SiteSpec {
  unsigned line, column;
  const char* kernel;
  const char* expression;
  const char* elementType;
  Space space;
  AccessKind kind;
  int bytes;
  AffineLanes lanes;
  UniformOffset base;
  bool indirect = false;
};

BlockShape block(Dim3 d, BlockSource s, std::string detail) {
  BlockShape b;
  b.dim = d;
  b.source = s;
  b.detail = std::move(detail);
  return b;
}

// The `control` kernel (lines 38-46): a parity branch that splits every warp, a range check
// that splits none, a barrier under that range check and one under a value the frontend
// cannot follow; and the pointer parameters of `strided` (line 5), neither restrict.
void addControlFlow(AnalysisResult& r, const std::string& file, const BlockShape& shape) {
  KernelRecord k;
  k.name = "control";
  k.loc = {file, 38, 17};
  k.block = shape;
  r.kernels.push_back(k);
  auto branch = [&](unsigned line, const char* condition, int64_t divergent) {
    BranchSite b;
    b.id = static_cast<int>(r.branches.size());
    b.loc = {file, line, 3};
    b.kernel = b.function = "control";
    b.kind = BranchKind::If;
    b.condition = condition;
    b.block = shape;
    b.evaluated = b.threadDependent = true;
    b.warpRequests = 8;
    b.divergentRequests = divergent;
    // Both conditions are known for every thread: remapped so that the threads taking the
    // branch are contiguous (128 of a 256-thread block, or the first 64), no warp splits.
    b.remappedDivergentRequests = 0;
    r.branches.push_back(std::move(b));
  };
  branch(40, "threadIdx.x % 2", 8);
  branch(41, "threadIdx.x < 64", 0);
  auto barrier = [&](unsigned line, unsigned column, BarrierSite::Reach reach, const char* guard) {
    BarrierSite b;
    b.id = static_cast<int>(r.barriers.size());
    b.loc = {file, line, column};
    b.kernel = b.function = "control";
    b.call = "__syncthreads()";
    b.block = shape;
    b.reach = reach;
    b.condition = guard;
    r.barriers.push_back(std::move(b));
  };
  barrier(43, 5, BarrierSite::Reach::Divergent, "threadIdx.x < 64");
  barrier(45, 17, BarrierSite::Reach::Unknown, "v > 3.0f");
  for (auto [name, column, read] : {std::tuple{"a", 38u, true}, std::tuple{"out", 48u, false}}) {
    PointerParam p;
    p.kernel = "strided";
    p.loc = {file, 5, column};
    p.name = name;
    p.read = read;
    p.written = !read;
    r.pointerParams.push_back(std::move(p));
  }
}

}  // namespace

AnalysisResult goldenAnalysis() {
  AnalysisResult r;
  const std::string file = "kernels.cu";
  FileRecord good, broken;
  good.path = file;
  broken.path = "broken.cu";
  broken.status = Status::Failed;
  broken.error = "expected ';' after expression";
  broken.diagnostics = {"broken.cu:4:12: error: expected ';' after expression"};
  r.files = {good, broken};

  auto addKernel = [&](std::string name, unsigned line, int accesses, BlockShape shape) {
    KernelRecord k;
    k.name = std::move(name);
    k.loc = {file, line, 17};
    k.accesses = accesses;
    k.block = std::move(shape);
    r.kernels.push_back(std::move(k));
  };
  addKernel("strided", 5, 3, block({256, 1, 1}, BlockSource::Launch, "launch at main.cu:40"));
  addKernel("shifted", 10, 1, block({128, 1, 1}, BlockSource::LaunchBounds, "__launch_bounds__(128)"));
  addKernel("particles", 15, 1, block({256, 1, 1}, BlockSource::Assumed, "1D, blockDim.x a multiple of 32"));
  addKernel("columns", 20, 2, block({32, 8, 1}, BlockSource::Annotation, "coalesce: block(32, 8)"));
  addKernel("gather", 25, 2, block({256, 1, 1}, BlockSource::Option, "--block-dim 256"));
  addKernel("tiles", 30, 7, block({32, 1, 1}, BlockSource::Launch, "launch at main.cu:52"));
  auto blockOf = [&](const std::string& kernel) {
    for (const KernelRecord& k : r.kernels)
      if (k.name == kernel) return k.block;
    throw std::logic_error("no kernel " + kernel);
  };

  const std::vector<SiteSpec> specs{
      {7, 12, "strided", "a[2 * i]", "float", Space::Global, AccessKind::Load, 4, {8, 0, 0}, {0, 16}},
      {7, 3, "strided", "out[i]", "float", Space::Global, AccessKind::Store, 4, {4, 0, 0}, {0, 256}},
      {12, 12, "shifted", "a[i + 1]", "float", Space::Global, AccessKind::Load, 4, {4, 0, 0}, {4, 0}},
      {17, 12, "particles", "p[i].x", "struct Particle::x", Space::Global, AccessKind::Load, 4, {24, 0, 0}, {0, 0}},
      {22, 23, "columns", "m[x * 2048 + y]", "float", Space::Global, AccessKind::Load, 4, {8192, 4, 0}, {0, 0}},
      {22, 3, "columns", "out[y * 2048 + x]", "float", Space::Global, AccessKind::Store, 4, {4, 8192, 0}, {0, 0}},
      {27, 12, "gather", "a[idx[i]]", "float", Space::Global, AccessKind::Load, 4, {}, {}, true},
      {27, 14, "gather", "idx[i]", "int", Space::Global, AccessKind::Load, 4, {4, 0, 0}, {0, 0}},
      {33, 3, "tiles", "s[threadIdx.x][0]", "float", Space::Shared, AccessKind::Store, 4, {128, 0, 0}, {0, 0}},
      {33, 23, "tiles", "out[threadIdx.x]", "float", Space::Global, AccessKind::Load, 4, {4, 0, 0}, {0, 0}},
      {34, 40, "tiles", "d[2 * threadIdx.x]", "double", Space::Shared, AccessKind::Load, 8, {16, 0, 0}, {0, 0}},
      {34, 20, "tiles", "s[0][threadIdx.x]", "float", Space::Shared, AccessKind::Load, 4, {4, 0, 0}, {0, 0}},
      {34, 3, "tiles", "d[threadIdx.x]", "double", Space::Shared, AccessKind::Store, 8, {8, 0, 0}, {0, 0}},
      {35, 22, "tiles", "s[threadIdx.x][1]", "float", Space::Shared, AccessKind::Load, 4, {128, 0, 0}, {4, 0}},
      {35, 3, "tiles", "out[threadIdx.x]", "float", Space::Global, AccessKind::Store, 4, {4, 0, 0}, {0, 0}},
  };
  for (const SiteSpec& spec : specs) {
    AccessSite s;
    s.id = static_cast<int>(r.accesses.size());
    s.loc = {file, spec.line, spec.column};
    s.kernel = spec.kernel;
    s.function = spec.kernel;
    s.expression = spec.expression;
    s.elementType = spec.elementType;
    if (s.expression == "p[i].x") {  // what the frontend records for a field of a user record
      s.record = "Particle";
      s.field = "x";
    }
    s.access.space = spec.space;
    s.access.kind = spec.kind;
    s.access.bytesPerLane = spec.bytes;
    s.access.pattern = spec.indirect ? LanePattern::makeIndirect() : LanePattern::makeAffine(spec.lanes, spec.base);
    s.block = blockOf(spec.kernel);
    s.figures = analyzeAccess(s.access, s.block.dim, defaultArch());
    r.accesses.push_back(std::move(s));
  }
  // The frontend's own sentences, and a line text it filled in (the others are read back
  // from kernels.cu by the filter).
  r.accesses[0].assumptions = {"assumes a + k is 16-byte aligned for the unknown offset k"};
  r.accesses[0].lineText = "  out[i] = a[2 * i];";

  // A vendored header: reported by the rules, hidden by the default Exclude.
  AccessSite vendored = r.accesses[0];
  vendored.id = static_cast<int>(r.accesses.size());
  vendored.loc = {"third_party/vec/vec.cuh", 3, 10};
  vendored.function = "load4";
  vendored.expression = "v[4 * i]";
  vendored.lineText = "  return v[4 * i];";
  vendored.access.pattern = LanePattern::makeAffine({16, 0, 0}, {0, 0});
  vendored.figures = analyzeAccess(vendored.access, vendored.block.dim, defaultArch());
  vendored.assumptions.clear();
  r.accesses.push_back(std::move(vendored));
  addControlFlow(r, file, block({256, 1, 1}, BlockSource::Launch, "launch at main.cu:60"));
  return r;
}

report::Report goldenReport(const AnalysisResult& analysis) {
  report::ConfigProvider configs(goldenDataDir() + "/golden.coalesce-lint.yaml");
  report::FilterInputs in;
  in.configs = &configs;
  const std::string dir = goldenDataDir();
  in.readSource = [dir](const std::string& path) { return report::diskSourceReader()(dir + "/" + path); };
  in.mainFiles = report::mainFilesOf(analysis);
  auto filtered = report::filterFindings(report::runRules(analysis, defaultArch()), in);
  if (!filtered) throw std::runtime_error(filtered.error().message);

  report::Report rep;
  rep.analysis = &analysis;
  rep.findings = filtered->findings;
  rep.stats = filtered->stats;
  rep.arch = defaultArch().name();
  rep.seconds = 0.25;
  rep.tool.version = "test";
  rep.tool.informationUri = "https://example.invalid/coalesce-lint";
  return rep;
}

}  // namespace coalesce::test
