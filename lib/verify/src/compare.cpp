#include "coalesce/verify/compare.h"

#include <algorithm>
#include <set>
#include <cctype>
#include <cstring>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>

#include "coalesce/verify/format_number.h"
#include "coalesce/verify/sass.h"

namespace coalesce::verify {

namespace {

// Which launches the collector measured (README.md, "Which launches are measured"). The wording of
// the default mode without a cap is the one every recorded report carries.
std::string samplingNote(const Measurements& m) {
  size_t configs = 0;
  std::set<std::string> kernels;
  for (const LaunchConfig& c : m.launchConfigs)
    if (c.measured) {
      ++configs;
      kernels.insert(c.kernel);
    }
  std::string which = "every launch selected";
  if (m.sampling == "config") which = fmt::format("the first launch of each of {} distinct configurations", configs);
  if (m.sampling == "first") which = fmt::format("the first launch of each of {} kernels", kernels.size());
  std::string note = fmt::format("{} of {} kernel launches measured ({}); {} ran unmeasured", m.launchesMeasured,
                                 m.kernelLaunches, which,
                                 m.kernelLaunches - std::min(m.launchesMeasured, m.kernelLaunches));
  if (m.configsOverCap)
    note += fmt::format(", among them every launch of {} distinct configurations past the per-kernel cap "
                        "(--max-configs)",
                        m.configsOverCap);
  return note;
}

}  // namespace

using model::AccessKind;
using model::Space;

namespace {

struct OpCounter {
  const char* metric;
  AccessClass cls;
};

const OpCounter kOpCounters[] = {
    {metric::kGlobalLd, {Space::Global, AccessKind::Load}},
    {metric::kGlobalSt, {Space::Global, AccessKind::Store}},
    {metric::kGlobalAtom, {Space::Global, AccessKind::Atomic}},
    {metric::kGlobalRed, {Space::Global, AccessKind::Atomic}},
    {metric::kSharedLd, {Space::Shared, AccessKind::Load}},
    {metric::kSharedSt, {Space::Shared, AccessKind::Store}},
    {metric::kSharedAtom, {Space::Shared, AccessKind::Atomic}},
};

std::string_view basename(std::string_view p) {
  const size_t slash = p.find_last_of('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

std::string normalise(std::string_view p) {
  std::string out;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\') {
      out += '/';
      continue;
    }
    if (p[i] == '/' && !out.empty() && out.back() == '/') continue;
    out += p[i];
  }
  while (out.rfind("./", 0) == 0) out.erase(0, 2);
  for (size_t pos; (pos = out.find("/./")) != std::string::npos;) out.erase(pos, 2);
  return out;
}

bool endsWithComponent(const std::string& longer, const std::string& shorter) {
  if (shorter.empty() || longer.size() < shorter.size()) return false;
  if (longer.compare(longer.size() - shorter.size(), shorter.size(), shorter) != 0) return false;
  return longer.size() == shorter.size() || longer[longer.size() - shorter.size() - 1] == '/' ||
         shorter.front() == '/';
}

bool near(double a, double b, double tol) { return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b)); }

std::string_view spaceUnit(Space s) { return s == Space::Shared ? "wavefronts" : "sectors"; }

}  // namespace

std::optional<AccessClass> classify(const MeasuredInstruction& in) {
  for (const OpCounter& c : kOpCounters)
    if (in.get(c.metric) > 0) return c.cls;
  if (!in.opcode.empty())
    if (auto info = classifyOpcode(in.opcode)) return AccessClass{info->space, info->kind};
  return std::nullopt;
}

uint64_t requestsOf(const MeasuredInstruction& in, const AccessClass& c) {
  uint64_t n = 0;
  bool any = false;
  for (const OpCounter& oc : kOpCounters)
    if (oc.cls == c && in.has(oc.metric)) {
      n += in.get(oc.metric);
      any = true;
    }
  // Without op counters (an older collector), executions are the best we have.
  return any ? n : in.get(metric::kInstExecuted);
}

MeasuredFigures aggregate(const std::vector<const MeasuredInstruction*>& instructions, const AccessClass& c) {
  MeasuredFigures f;
  const bool shared = c.space == Space::Shared;
  std::vector<const MeasuredInstruction*> sorted(instructions);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) {
    return std::tie(a->function, a->pc) < std::tie(b->function, b->pc);
  });
  for (const MeasuredInstruction* in : sorted) {
    const uint64_t req = requestsOf(*in, c);
    if (req == 0) continue;
    const uint64_t units = in->get(shared ? metric::kWavefronts : metric::kSectors);
    ++f.instructions;
    f.requests += req;
    f.executions += in->get(metric::kInstExecuted);
    f.units += units;
    f.idealUnits += in->get(shared ? metric::kWavefrontsIdeal : metric::kSectorsIdeal);
    f.activeThreads += in->get(shared ? metric::kThreadSharedPredOn : metric::kThreadGlobalPredOn);
    f.perInstruction.push_back(static_cast<double>(units) / static_cast<double>(req));
    const auto info = in->opcode.empty() ? std::nullopt : classifyOpcode(in->opcode);
    f.widths.push_back(info ? info->bytes : 0);
  }
  return f;
}

bool sameSourceFile(std::string_view predicted, std::string_view measured) {
  if (predicted.empty() || measured.empty()) return false;
  const std::string p = normalise(predicted), m = normalise(measured);
  if (p == m || endsWithComponent(m, p) || endsWithComponent(p, m)) return true;
  return basename(p) == basename(m);
}

// Integer literal suffixes dropped: Clang names an instantiation "k<1U>", the demangler "k<1u>"
// and, for other integer types, "k<1ul>" or "k<(unsigned char)1>"; the number is what tells them apart.
std::string withoutIntegerSuffixes(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    const bool numberEnds = std::isdigit(static_cast<unsigned char>(s[i])) &&
                            (out.size() < 2 || !std::isalpha(static_cast<unsigned char>(out[out.size() - 2])));
    if (!numberEnds) continue;
    size_t j = i + 1;
    while (j < s.size() && std::strchr("uUlL", s[j])) ++j;
    if (j > i + 1 && (j == s.size() || !std::isalnum(static_cast<unsigned char>(s[j])))) i = j - 1;
  }
  return out;
}

// Kernels predicted on a block shape the program never launched them with (the launches the
// collector recorded): their figures may not apply, and --launch-info says how to fix that.
static std::vector<std::string> blockShapeNotes(const Predictions& predictions, const Measurements& measurements) {
  std::vector<std::string> notes;
  for (const PredictedKernel& k : predictions.kernels) {
    if (k.name.empty() || !k.blockX) continue;
    std::set<std::string> launched;
    bool predictedShapeRan = false;
    for (const LaunchConfig& c : measurements.launchConfigs) {
      MeasuredInstruction as;
      as.function = c.kernel;
      as.demangled = demangledName(c.kernel);
      if (!sameKernel(k.name, as)) continue;
      predictedShapeRan |= c.block == std::array<uint32_t, 3>{k.blockX, k.blockY, k.blockZ};
      launched.insert(fmt::format("{}x{}x{}", c.block[0], c.block[1], c.block[2]));
    }
    if (launched.empty() || predictedShapeRan) continue;
    std::string shapes;
    for (const std::string& l : launched) shapes += (shapes.empty() ? "" : ", ") + l;
    notes.push_back(fmt::format("kernel '{}' was predicted on a {}x{}x{} block ({}), but the program launched it with "
                                "{}: its figures may not apply (predict again with --launch-info on these "
                                "measurements)",
                                k.name, k.blockX, k.blockY, k.blockZ, k.blockSource, shapes));
  }
  return notes;
}

bool sameKernel(std::string_view predictedKernelName, const MeasuredInstruction& in) {
  if (predictedKernelName.empty()) return true;
  if (in.function == predictedKernelName) return true;
  const std::string predictedCanonical = withoutIntegerSuffixes(predictedKernelName);
  const std::string_view predictedKernel = predictedCanonical;
  if (in.function == predictedKernel) return true;
  // Itanium mangling names each component as <length><identifier>.
  const std::string_view ident = predictedKernel.substr(predictedKernel.rfind(':') == std::string_view::npos
                                                            ? 0
                                                            : predictedKernel.rfind(':') + 1);
  const std::string token = std::to_string(ident.size()) + std::string(ident);
  if (in.function.rfind("_Z", 0) == 0 && in.function.find(token) != std::string::npos) return true;
  // Demangled "ns::kernel(float*)" or "void kernel<256>(float*)".
  const std::string d = withoutIntegerSuffixes(in.demangled);
  for (size_t pos = d.find(predictedKernel); pos != std::string::npos; pos = d.find(predictedKernel, pos + 1)) {
    const size_t end = pos + predictedKernel.size();
    const bool startOk = pos == 0 || d[pos - 1] == ' ' || d[pos - 1] == ':';
    const bool endOk = end == d.size() || d[end] == '(' || d[end] == '<';
    if (startOk && endOk) return true;
  }
  return false;
}

std::string_view toString(Verdict v) {
  switch (v) {
    case Verdict::Match: return "match";
    case Verdict::Mismatch: return "mismatch";
    case Verdict::WithinRange: return "within-range";
    case Verdict::NotFound: return "not-found";
    case Verdict::Unpredicted: return "unpredicted";
    case Verdict::Unchecked: return "unchecked";
  }
  return "?";
}

std::string_view toString(Basis b) {
  switch (b) {
    case Basis::None: return "none";
    case Basis::PerRequest: return "per-request";
    case Basis::RatioToIdeal: return "ratio-to-ideal";
    case Basis::Bounds: return "range";
  }
  return "?";
}

size_t ConfigurationComparison::count(Verdict v) const {
  return static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [v](auto& l) { return l.verdict == v; }));
}

size_t ConfigurationComparison::count(BranchVerdict v) const {
  return static_cast<size_t>(
      std::count_if(branches.begin(), branches.end(), [v](auto& b) { return b.verdict == v; }));
}

size_t VerifyReport::count(Verdict v) const {
  size_t n = static_cast<size_t>(std::count_if(lines.begin(), lines.end(), [v](auto& l) { return l.verdict == v; }));
  for (const ConfigurationComparison& c : configurations) n += c.count(v);
  return n;
}

size_t VerifyReport::count(BranchVerdict v) const {
  size_t n = static_cast<size_t>(
      std::count_if(branches.begin(), branches.end(), [v](auto& b) { return b.verdict == v; }));
  for (const ConfigurationComparison& c : configurations) n += c.count(v);
  return n;
}

int exitCodeFor(const VerifyReport& report, bool allowNotFound) {
  if (report.anyMismatch() || report.count(BranchVerdict::Contradicted)) return kExitMismatch;
  if (!allowNotFound && report.count(Verdict::NotFound)) return kExitIncomplete;
  return kExitOk;
}

namespace {

// The location an instruction is compared at: its own line when that file has
// predictions, else the innermost call site (from inline info) in such a file.
std::optional<std::pair<std::string, unsigned>> attributedLocation(const MeasuredInstruction& in,
                                                                   const std::vector<std::string>& predictedFiles,
                                                                   bool* inlined) {
  auto predictedFile = [&](const std::string& f) -> const std::string* {
    for (const std::string& p : predictedFiles)
      if (sameSourceFile(p, f)) return &p;
    return nullptr;
  };
  *inlined = false;
  if (const std::string* p = predictedFile(in.file)) return std::make_pair(*p, in.line);
  for (const auto& [f, l] : in.inlinedAt)
    if (const std::string* p = predictedFile(f)) {
      *inlined = true;
      return std::make_pair(*p, l);
    }
  return std::nullopt;
}

// What the line's predicted accesses say, gathered once for every basis below.
struct PredictedFigures {
  std::vector<double> perRequest;  // of the accesses with a figure
  std::vector<double> ideal;       // their ideal figures, where known
  std::optional<Range> range;      // the union of the accesses' ranges
  bool noFigure = true;            // no access has a figure (a range at most)
};

PredictedFigures predictedFigures(const std::vector<PredictedAccess>& accesses) {
  PredictedFigures f;
  for (const PredictedAccess& a : accesses) {
    if (auto v = a.perRequest()) {
      f.perRequest.push_back(*v);
      f.noFigure = false;
      if (auto i = a.idealPerRequest()) f.ideal.push_back(*i);
    } else if (auto r = a.range()) {
      f.range = f.range ? Range{std::min(f.range->first, r->first), std::max(f.range->second, r->second)} : *r;
    }
  }
  return f;
}

bool withinRange(double v, const Range& range, const CompareOptions& opt) {
  const double tol = opt.relativeTolerance * std::max(1.0, range.second);
  return v >= range.first - tol && v <= range.second + tol;
}

// Notes on how the instructions differ in shape from the source: lanes predicated off,
// another number of instructions than accesses, another width per lane.
void noteShapeDifferences(LineComparison& lc) {
  const MeasuredFigures& m = lc.measured;
  if (m.executions > m.requests)
    lc.notes.push_back(fmt::format("{} of {} executions had every lane predicated off; requests count only "
                                   "executions with an active lane",
                                   m.executions - m.requests, m.executions));
  const size_t nPred = lc.predicted.size();
  if (m.instructions != nPred)
    lc.notes.push_back(fmt::format("{} predicted access{} and {} instruction{}: compared as a whole "
                                   "(unrolling, merging or splitting by the compiler)",
                                   nPred, nPred == 1 ? "" : "es", m.instructions, m.instructions == 1 ? "" : "s"));
  std::multiset<int> predictedWidths, measuredWidths;
  for (const PredictedAccess& a : lc.predicted) predictedWidths.insert(a.bytes);
  bool widthsKnown = true;
  for (int w : m.widths) {
    measuredWidths.insert(w);
    widthsKnown = widthsKnown && w > 0;
  }
  if (widthsKnown && !m.widths.empty() && m.instructions == nPred && predictedWidths != measuredWidths)
    lc.notes.push_back("the instructions move a different width per lane than the source accesses");
}

// Basis::RatioToIdeal: different bytes per request than predicted (vectorised or split
// by the compiler, or fewer active lanes) but the same waste. True when it matches so.
bool matchesByRatioToIdeal(LineComparison& lc, const CompareOptions& opt) {
  const MeasuredFigures& m = lc.measured;
  if (!(lc.predictedIdeal && m.idealUnits && *lc.predictedIdeal > 0 &&
        !near(m.idealPerRequest(), *lc.predictedIdeal, opt.relativeTolerance) &&
        near(m.ratio(), *lc.predictedPerRequest / *lc.predictedIdeal, opt.relativeTolerance)))
    return false;
  const std::string_view unit = spaceUnit(lc.cls.space);
  lc.verdict = Verdict::Match;
  lc.basis = Basis::RatioToIdeal;
  lc.notes.push_back(fmt::format("ideal {} per request measured {} against {} predicted: the compiler "
                                 "changed the width or the active lanes; compared {} / ideal instead",
                                 unit, formatNumber(m.idealPerRequest()), formatNumber(*lc.predictedIdeal), unit));
  return true;
}

// Basis::PerRequest: every access has a figure (sectors per request for global memory,
// wavefronts per request for shared); the line's mean is compared, else its ratio to ideal.
void judgePerRequest(LineComparison& lc, const PredictedFigures& p, const CompareOptions& opt) {
  const MeasuredFigures& m = lc.measured;
  double sum = 0, sumIdeal = 0;
  for (double v : p.perRequest) sum += v;
  for (double v : p.ideal) sumIdeal += v;
  lc.predictedPerRequest = sum / static_cast<double>(p.perRequest.size());
  if (p.ideal.size() == p.perRequest.size()) lc.predictedIdeal = sumIdeal / static_cast<double>(p.ideal.size());
  if (near(m.perRequest(), *lc.predictedPerRequest, opt.relativeTolerance)) {
    lc.verdict = Verdict::Match;
    lc.basis = Basis::PerRequest;
  } else if (!matchesByRatioToIdeal(lc, opt)) {
    lc.verdict = Verdict::Mismatch;
    lc.basis = Basis::PerRequest;
  }
  const size_t nPred = lc.predicted.size();
  if (m.instructions == nPred && nPred > 1 && lc.verdict == Verdict::Match && lc.basis == Basis::PerRequest) {
    std::vector<double> a(p.perRequest), b(m.perInstruction);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    for (size_t i = 0; i < a.size(); ++i)
      if (!near(b[i], a[i], opt.relativeTolerance)) {
        lc.notes.push_back("the line's total matches but its instructions cannot be matched one to one");
        break;
      }
  }
}

// Basis::Bounds: no access has a figure, some have a range (data-dependent addresses).
void judgeRange(LineComparison& lc, const Range& range, const CompareOptions& opt) {
  lc.predictedRange = range;
  lc.basis = Basis::Bounds;
  lc.verdict = withinRange(lc.measured.perRequest(), range, opt) ? Verdict::WithinRange : Verdict::Mismatch;
}

// Basis::Bounds for a gather a[idx[i]]: idx[i] has a figure, a[...] a range. Pair each
// figure with an instruction that shows it; the rest must fall in the range.
void judgeFiguresAndRange(LineComparison& lc, const PredictedFigures& p, const CompareOptions& opt) {
  std::vector<double> left(lc.measured.perInstruction);
  bool paired = true;
  for (double v : p.perRequest) {
    auto it = std::find_if(left.begin(), left.end(), [&](double x) { return near(x, v, opt.relativeTolerance); });
    if (it == left.end()) {
      paired = false;
      break;
    }
    left.erase(it);
  }
  const bool inRange =
      std::all_of(left.begin(), left.end(), [&](double x) { return withinRange(x, *p.range, opt); });
  lc.predictedRange = p.range;
  lc.basis = Basis::Bounds;
  lc.verdict = paired && inRange ? Verdict::WithinRange : Verdict::Mismatch;
  lc.notes.push_back(paired && inRange
                         ? "instructions paired one to one: the exact figures match, the others fall in the range"
                         : "the instructions cannot be paired with the predicted figures and range");
}

void markUnchecked(LineComparison& lc, std::string why) {
  lc.verdict = Verdict::Unchecked;
  lc.notes.push_back(std::move(why));
}

// The verdict of one line: picks the basis the predictions allow and judges on it.
void judge(LineComparison& lc, const CompareOptions& opt) {
  if (lc.measured.requests == 0) {
    lc.verdict = Verdict::NotFound;
    lc.notes.push_back("no executed instruction of this class on this line: inlined away, optimised out, "
                       "or its kernel never ran");
    return;
  }
  noteShapeDifferences(lc);
  const PredictedFigures p = predictedFigures(lc.predicted);
  const size_t nPred = lc.predicted.size();
  if (!p.perRequest.empty() && p.perRequest.size() == nPred) return judgePerRequest(lc, p, opt);
  if (p.noFigure && p.range) return judgeRange(lc, *p.range, opt);
  if (!p.perRequest.empty() && p.range && lc.measured.instructions == nPred)
    return judgeFiguresAndRange(lc, p, opt);
  if (!p.perRequest.empty())
    return markUnchecked(lc, "some accesses on this line have a figure and others only a range, and the "
                             "instructions cannot be paired with them: not compared");
  markUnchecked(lc, "no predicted figure or range for this access");
}

}  // namespace

VerifyReport comparePooled(const Predictions& predictions, const Measurements& measurements,
                           const CompareOptions& opt) {
  VerifyReport report;
  report.device = measurements.device;
  // Predicted files, in order of appearance.
  std::vector<std::string> files;
  for (const PredictedAccess& a : predictions.accesses)
    if (std::find(files.begin(), files.end(), a.file) == files.end()) files.push_back(a.file);

  // One group per line, class and kernel: a device function's line executed by two
  // kernels may have different figures in each.
  using LineKey = std::tuple<std::string, unsigned, AccessClass>;
  using GroupKey = std::tuple<std::string, unsigned, AccessClass, std::string>;
  std::map<GroupKey, std::vector<const PredictedAccess*>> predicted;
  std::map<LineKey, std::vector<std::string>> kernelsOnLine;
  for (const PredictedAccess& a : predictions.accesses) {
    auto& group = predicted[{a.file, a.line, {a.space, a.kind}, a.kernel}];
    if (group.empty()) kernelsOnLine[{a.file, a.line, {a.space, a.kind}}].push_back(a.kernel);
    group.push_back(&a);
  }

  std::map<LineKey, std::vector<const MeasuredInstruction*>> measured;
  std::map<const MeasuredInstruction*, bool> inlinedIns;
  size_t outside = 0, noLine = 0;
  std::set<std::string> outsideFiles;
  for (const MeasuredInstruction& in : measurements.instructions) {
    const auto cls = classify(in);
    if (!cls) continue;
    if (requestsOf(in, *cls) == 0) continue;
    bool inlined = false;
    const auto loc = attributedLocation(in, files, &inlined);
    if (!loc) {
      if (in.file.empty() || in.line == 0) ++noLine;
      else {
        ++outside;
        outsideFiles.insert(std::string(basename(in.file)));
      }
      continue;
    }
    measured[{loc->first, loc->second, *cls}].push_back(&in);
    inlinedIns[&in] = inlined;
  }

  std::set<const MeasuredInstruction*> claimed;
  for (const auto& [key, accesses] : predicted) {
    LineComparison lc;
    lc.file = std::get<0>(key);
    lc.line = std::get<1>(key);
    lc.cls = std::get<2>(key);
    const std::string& kernel = std::get<3>(key);
    if (!kernel.empty()) lc.kernels.push_back(kernel);
    for (const PredictedAccess* a : accesses) lc.predicted.push_back(*a);
    std::vector<const MeasuredInstruction*> ins;
    if (auto it = measured.find({lc.file, lc.line, lc.cls}); it != measured.end()) ins = it->second;
    const auto& lineKernels = kernelsOnLine[{lc.file, lc.line, lc.cls}];
    if (!kernel.empty()) {
      std::vector<const MeasuredInstruction*> kept;
      for (const MeasuredInstruction* in : ins)
        if (sameKernel(kernel, *in)) kept.push_back(in);
      // With a single predicted kernel on the line, instructions of a kernel the
      // frontend did not name (a template instance, say) still belong to it.
      if (kept.empty() && lineKernels.size() == 1 && !ins.empty())
        lc.notes.push_back("the line's instructions are in kernels named differently from the prediction's");
      else
        ins = kept;
    }
    size_t inlined = 0;
    for (const MeasuredInstruction* in : ins) {
      claimed.insert(in);
      inlined += inlinedIns[in];
    }
    lc.measured = aggregate(ins, lc.cls);
    if (inlined)
      lc.notes.push_back(fmt::format("{} instruction(s) attributed through inlining (the access is in a called "
                                     "function)",
                                     inlined));
    judge(lc, opt);
    report.lines.push_back(std::move(lc));
  }
  // Executed instructions no prediction claims, per line and class.
  for (const auto& [key, ins] : measured) {
    std::vector<const MeasuredInstruction*> rest;
    for (const MeasuredInstruction* in : ins)
      if (!claimed.count(in)) rest.push_back(in);
    if (rest.empty()) continue;
    LineComparison lc;
    lc.file = std::get<0>(key);
    lc.line = std::get<1>(key);
    lc.cls = std::get<2>(key);
    std::set<std::string> names;
    for (const MeasuredInstruction* in : rest) names.insert(in->demangled.empty() ? in->function : in->demangled);
    lc.kernels.assign(names.begin(), names.end());
    lc.measured = aggregate(rest, lc.cls);
    lc.verdict = Verdict::Unpredicted;
    lc.notes.push_back("executed memory instruction with no prediction for this line, class and kernel");
    report.lines.push_back(std::move(lc));
  }
  std::sort(report.lines.begin(), report.lines.end(), [](const LineComparison& a, const LineComparison& b) {
    return std::tie(a.file, a.line, a.cls, a.kernels) < std::tie(b.file, b.line, b.cls, b.kernels);
  });
  if (outside) {
    std::string names;
    for (const std::string& f : outsideFiles) names += (names.empty() ? "" : ", ") + f;
    report.notes.push_back(fmt::format("{} executed memory instruction(s) in files without predictions were not "
                                       "compared ({})",
                                       outside, names));
  }
  if (noLine)
    report.notes.push_back(fmt::format("{} executed memory instruction(s) have no source line (build with "
                                       "-lineinfo)",
                                       noLine));
  if (measurements.processes > 1)
    report.notes.push_back(fmt::format("{} processes ran CUDA kernels under the collector (a program that starts "
                                       "others, or several programs): their measurements are compared together",
                                       measurements.processes));
  if (measurements.droppedRecords)
    report.notes.push_back(fmt::format("CUPTI dropped {} records", measurements.droppedRecords));
  for (const std::string& note : blockShapeNotes(predictions, measurements)) report.notes.push_back(note);
  if (!measurements.sampling.empty()) report.notes.push_back(samplingNote(measurements));
  report.branches = compareBranches(predictions, measurements, opt.branches);
  return report;
}

}  // namespace coalesce::verify
