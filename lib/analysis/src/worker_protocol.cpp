// The worker's wire format: every field of every record, through llvm::json. Exactness first: a double travels as its 64-bit pattern, a string that is not
// UTF-8 (a Latin-1 source line) as hex, so what the parent reads equals what the worker
// had, bit for bit.
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <bit>

#include "coalesce/analysis/worker.h"
#include "worker_process.h"

namespace coalesce::analysis {

namespace json = llvm::json;

namespace {

constexpr int kProtocolVersion = 1;

// ---- writing -----------------------------------------------------------------------------

json::Value str(const std::string& s) {
  if (llvm::json::isUTF8(s)) return s;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : s) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return json::Object{{"hex", std::move(hex)}};
}
json::Value num(double d) { return std::bit_cast<int64_t>(d); }
json::Value strings(const std::vector<std::string>& v) {
  json::Array a;
  for (const auto& s : v) a.push_back(str(s));
  return a;
}
json::Value loc(const SourceLocation& l) { return json::Array{str(l.file), l.line, l.column}; }
json::Value dim(const model::Dim3& d) { return json::Array{d.x, d.y, d.z}; }
json::Value block(const BlockShape& b) {
  return json::Object{{"dim", dim(b.dim)}, {"source", static_cast<int>(b.source)}, {"detail", str(b.detail)}};
}

json::Value pattern(const model::LanePattern& p) {
  json::Array offsets;
  for (const auto& o : p.threadOffsets) offsets.push_back(o ? json::Value(*o) : json::Value(nullptr));
  return json::Object{{"kind", static_cast<int>(p.kind)},
                      {"affine", json::Array{p.affine.cx, p.affine.cy, p.affine.cz}},
                      {"offsets", std::move(offsets)},
                      {"base", json::Array{p.base.constant, p.base.unknownAlignment}}};
}

json::Value global(const model::GlobalFigures& g) {
  return json::Array{num(g.sectorsPerRequest), num(g.idealSectors), num(g.efficiency), g.minSectors,
                     g.maxSectors,            g.broadcast,         g.requests};
}
json::Value shared(const model::SharedFigures& s) {
  return json::Array{num(s.wavefronts), num(s.idealWavefronts), num(s.conflictDegree),
                     s.maxWavefronts,   s.maxWaysInPhase,       s.requests};
}
template <class F, class Fn>
json::Value cases(const std::optional<model::AlignmentCases<F>>& c, Fn write) {
  if (!c) return nullptr;
  return json::Array{write(c->aligned), write(c->best), write(c->worst), c->alignmentKnown};
}
json::Value range(const std::optional<std::pair<double, double>>& r) {
  if (!r) return nullptr;
  return json::Array{num(r->first), num(r->second)};
}

json::Value access(const AccessSite& a) {
  const auto& f = a.figures;
  return json::Object{
      {"id", a.id},
      {"loc", loc(a.loc)},
      {"kernel", str(a.kernel)},
      {"function", str(a.function)},
      {"expression", str(a.expression)},
      {"lineText", str(a.lineText)},
      {"elementType", str(a.elementType)},
      {"access", json::Object{{"space", static_cast<int>(a.access.space)},
                              {"kind", static_cast<int>(a.access.kind)},
                              {"bytes", a.access.bytesPerLane},
                              {"pattern", pattern(a.access.pattern)}}},
      {"block", block(a.block)},
      {"figures", json::Object{{"global", cases(f.global, global)},
                               {"shared", cases(f.shared, shared)},
                               {"sectorRange", range(f.sectorRange)},
                               {"wavefrontRange", range(f.wavefrontRange)},
                               {"activeLanes", f.activeLanesPerWarp}}},
      {"assumptions", strings(a.assumptions)},
      {"indirectRowGather", a.indirectRowGather},
  };
}

json::Value branch(const BranchSite& b) {
  return json::Object{{"id", b.id},
                      {"loc", loc(b.loc)},
                      {"kernel", str(b.kernel)},
                      {"function", str(b.function)},
                      {"kind", static_cast<int>(b.kind)},
                      {"condition", str(b.condition)},
                      {"lineText", str(b.lineText)},
                      {"block", block(b.block)},
                      {"evaluated", b.evaluated},
                      {"threadDependent", b.threadDependent},
                      {"warpRequests", b.warpRequests},
                      {"divergentRequests", b.divergentRequests},
                      {"onlyPartialWarps", b.onlyPartialWarps},
                      {"assumptions", strings(b.assumptions)}};
}

json::Value barrier(const BarrierSite& b) {
  return json::Object{{"id", b.id},
                      {"loc", loc(b.loc)},
                      {"kernel", str(b.kernel)},
                      {"function", str(b.function)},
                      {"call", str(b.call)},
                      {"lineText", str(b.lineText)},
                      {"block", block(b.block)},
                      {"reach", static_cast<int>(b.reach)},
                      {"condition", str(b.condition)},
                      {"assumptions", strings(b.assumptions)}};
}

json::Value pointerParam(const PointerParam& p) {
  return json::Object{{"kernel", str(p.kernel)}, {"loc", loc(p.loc)},       {"name", str(p.name)},
                      {"isRestrict", p.isRestrict}, {"read", p.read}, {"written", p.written}};
}

json::Value kernel(const KernelRecord& k) {
  return json::Object{{"name", str(k.name)},       {"loc", loc(k.loc)},           {"status", static_cast<int>(k.status)},
                      {"reason", str(k.reason)}, {"accesses", k.accesses}, {"block", block(k.block)}};
}

json::Value file(const FileRecord& f) {
  return json::Object{{"path", str(f.path)},
                      {"status", static_cast<int>(f.status)},
                      {"error", str(f.error)},
                      {"hostErrors", f.hostErrors},
                      {"diagnostics", strings(f.diagnostics)}};
}

template <class T, class Fn>
json::Value array(const std::vector<T>& v, Fn write) {
  json::Array a;
  for (const auto& x : v) a.push_back(write(x));
  return a;
}

std::string print(json::Value v) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << v;
  return text;
}

// ---- reading -----------------------------------------------------------------------------

// Reads values out of a parsed document; the first mismatch is kept (with its path) and
// every later read returns a default, so callers read straight through and check once.
class Reader {
 public:
  std::string error;

  const json::Value* at(const json::Value* v, std::string_view what) {
    if (!v && error.empty()) error = "missing " + std::string(what);
    return v;
  }
  const json::Object* object(const json::Value* v, std::string_view what) {
    if (!at(v, what)) return nullptr;
    auto* o = v->getAsObject();
    if (!o) fail(what, "an object");
    return o;
  }
  const json::Array* array(const json::Value* v, std::string_view what, size_t size = SIZE_MAX) {
    if (!at(v, what)) return nullptr;
    auto* a = v->getAsArray();
    if (!a) fail(what, "an array");
    else if (size != SIZE_MAX && a->size() != size) fail(what, "an array of " + std::to_string(size));
    else return a;
    return nullptr;
  }
  const json::Value* field(const json::Object* o, std::string_view key) {
    if (!o) return nullptr;
    return at(o->get(llvm::StringRef(key.data(), key.size())), key);
  }
  const json::Value* item(const json::Array* a, size_t i, std::string_view what) {
    if (!a || i >= a->size()) {
      if (a) fail(what, "more items");
      return nullptr;
    }
    return &(*a)[i];
  }

  int64_t integer(const json::Value* v, std::string_view what) {
    if (!at(v, what)) return 0;
    if (auto i = v->getAsInteger()) return *i;
    fail(what, "an integer");
    return 0;
  }
  double number(const json::Value* v, std::string_view what) { return std::bit_cast<double>(integer(v, what)); }
  bool boolean(const json::Value* v, std::string_view what) {
    if (!at(v, what)) return false;
    if (auto b = v->getAsBoolean()) return *b;
    fail(what, "a boolean");
    return false;
  }
  std::string string(const json::Value* v, std::string_view what) {
    if (!at(v, what)) return {};
    if (auto s = v->getAsString()) return s->str();
    if (auto* o = v->getAsObject())
      if (auto hex = o->getString("hex"); hex && hex->size() % 2 == 0) {
        std::string out;
        for (size_t i = 0; i < hex->size(); i += 2) {
          auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
          out += static_cast<char>(digit((*hex)[i]) * 16 + digit((*hex)[i + 1]));
        }
        return out;
      }
    fail(what, "a string");
    return {};
  }
  template <class E>
  E enumeration(const json::Value* v, std::string_view what, int last) {
    const int64_t i = integer(v, what);
    if (i < 0 || i > last) {
      fail(what, "a known enumerator");
      return E{};
    }
    return static_cast<E>(i);
  }
  std::vector<std::string> strings(const json::Value* v, std::string_view what) {
    std::vector<std::string> out;
    if (auto* a = array(v, what))
      for (const auto& s : *a) out.push_back(string(&s, what));
    return out;
  }

 private:
  void fail(std::string_view what, const std::string& expected) {
    if (error.empty()) error = std::string(what) + ": expected " + expected;
  }
};

SourceLocation readLoc(Reader& r, const json::Value* v) {
  SourceLocation l;
  auto* a = r.array(v, "loc", 3);
  l.file = r.string(r.item(a, 0, "loc"), "loc.file");
  l.line = static_cast<unsigned>(r.integer(r.item(a, 1, "loc"), "loc.line"));
  l.column = static_cast<unsigned>(r.integer(r.item(a, 2, "loc"), "loc.column"));
  return l;
}

model::Dim3 readDim(Reader& r, const json::Value* v) {
  model::Dim3 d;
  auto* a = r.array(v, "dim", 3);
  d.x = r.integer(r.item(a, 0, "dim"), "dim.x");
  d.y = r.integer(r.item(a, 1, "dim"), "dim.y");
  d.z = r.integer(r.item(a, 2, "dim"), "dim.z");
  return d;
}

BlockShape readBlock(Reader& r, const json::Value* v) {
  BlockShape b;
  auto* o = r.object(v, "block");
  b.dim = readDim(r, r.field(o, "dim"));
  b.source = r.enumeration<BlockSource>(r.field(o, "source"), "block.source", static_cast<int>(BlockSource::Assumed));
  b.detail = r.string(r.field(o, "detail"), "block.detail");
  return b;
}

model::LanePattern readPattern(Reader& r, const json::Value* v) {
  model::LanePattern p;
  auto* o = r.object(v, "pattern");
  p.kind = r.enumeration<model::PatternKind>(r.field(o, "kind"), "pattern.kind",
                                             static_cast<int>(model::PatternKind::Unknown));
  auto* affine = r.array(r.field(o, "affine"), "pattern.affine", 3);
  p.affine.cx = r.integer(r.item(affine, 0, "affine"), "affine.cx");
  p.affine.cy = r.integer(r.item(affine, 1, "affine"), "affine.cy");
  p.affine.cz = r.integer(r.item(affine, 2, "affine"), "affine.cz");
  if (auto* offsets = r.array(r.field(o, "offsets"), "pattern.offsets")) {
    p.threadOffsets.reserve(offsets->size());
    for (const auto& x : *offsets)
      p.threadOffsets.push_back(x.getAsNull() ? std::nullopt : std::optional<int64_t>(r.integer(&x, "offset")));
  }
  auto* base = r.array(r.field(o, "base"), "pattern.base", 2);
  p.base.constant = r.integer(r.item(base, 0, "base"), "base.constant");
  p.base.unknownAlignment = r.integer(r.item(base, 1, "base"), "base.unknownAlignment");
  return p;
}

model::GlobalFigures readGlobal(Reader& r, const json::Value* v) {
  model::GlobalFigures g;
  auto* a = r.array(v, "global figures", 7);
  g.sectorsPerRequest = r.number(r.item(a, 0, "global"), "sectorsPerRequest");
  g.idealSectors = r.number(r.item(a, 1, "global"), "idealSectors");
  g.efficiency = r.number(r.item(a, 2, "global"), "efficiency");
  g.minSectors = r.integer(r.item(a, 3, "global"), "minSectors");
  g.maxSectors = r.integer(r.item(a, 4, "global"), "maxSectors");
  g.broadcast = r.boolean(r.item(a, 5, "global"), "broadcast");
  g.requests = r.integer(r.item(a, 6, "global"), "requests");
  return g;
}
model::SharedFigures readShared(Reader& r, const json::Value* v) {
  model::SharedFigures s;
  auto* a = r.array(v, "shared figures", 6);
  s.wavefronts = r.number(r.item(a, 0, "shared"), "wavefronts");
  s.idealWavefronts = r.number(r.item(a, 1, "shared"), "idealWavefronts");
  s.conflictDegree = r.number(r.item(a, 2, "shared"), "conflictDegree");
  s.maxWavefronts = r.integer(r.item(a, 3, "shared"), "maxWavefronts");
  s.maxWaysInPhase = r.integer(r.item(a, 4, "shared"), "maxWaysInPhase");
  s.requests = r.integer(r.item(a, 5, "shared"), "requests");
  return s;
}
template <class F, class Fn>
std::optional<model::AlignmentCases<F>> readCases(Reader& r, const json::Value* v, Fn read) {
  if (!r.at(v, "figures") || v->getAsNull()) return std::nullopt;
  model::AlignmentCases<F> c;
  auto* a = r.array(v, "alignment cases", 4);
  c.aligned = read(r, r.item(a, 0, "cases"));
  c.best = read(r, r.item(a, 1, "cases"));
  c.worst = read(r, r.item(a, 2, "cases"));
  c.alignmentKnown = r.boolean(r.item(a, 3, "cases"), "alignmentKnown");
  return c;
}
std::optional<std::pair<double, double>> readRange(Reader& r, const json::Value* v) {
  if (!r.at(v, "range") || v->getAsNull()) return std::nullopt;
  auto* a = r.array(v, "range", 2);
  return std::make_pair(r.number(r.item(a, 0, "range"), "range.first"), r.number(r.item(a, 1, "range"), "range.second"));
}

AccessSite readAccess(Reader& r, const json::Value& v) {
  AccessSite a;
  auto* o = r.object(&v, "access");
  a.id = static_cast<int>(r.integer(r.field(o, "id"), "id"));
  a.loc = readLoc(r, r.field(o, "loc"));
  a.kernel = r.string(r.field(o, "kernel"), "kernel");
  a.function = r.string(r.field(o, "function"), "function");
  a.expression = r.string(r.field(o, "expression"), "expression");
  a.lineText = r.string(r.field(o, "lineText"), "lineText");
  a.elementType = r.string(r.field(o, "elementType"), "elementType");
  auto* acc = r.object(r.field(o, "access"), "access.access");
  a.access.space = r.enumeration<model::Space>(r.field(acc, "space"), "space", static_cast<int>(model::Space::Local));
  a.access.kind =
      r.enumeration<model::AccessKind>(r.field(acc, "kind"), "kind", static_cast<int>(model::AccessKind::Atomic));
  a.access.bytesPerLane = static_cast<int>(r.integer(r.field(acc, "bytes"), "bytes"));
  a.access.pattern = readPattern(r, r.field(acc, "pattern"));
  a.block = readBlock(r, r.field(o, "block"));
  auto* f = r.object(r.field(o, "figures"), "figures");
  a.figures.global = readCases<model::GlobalFigures>(r, r.field(f, "global"), readGlobal);
  a.figures.shared = readCases<model::SharedFigures>(r, r.field(f, "shared"), readShared);
  a.figures.sectorRange = readRange(r, r.field(f, "sectorRange"));
  a.figures.wavefrontRange = readRange(r, r.field(f, "wavefrontRange"));
  a.figures.activeLanesPerWarp = r.integer(r.field(f, "activeLanes"), "activeLanes");
  a.assumptions = r.strings(r.field(o, "assumptions"), "assumptions");
  a.indirectRowGather = r.boolean(r.field(o, "indirectRowGather"), "indirectRowGather");
  return a;
}

BranchSite readBranch(Reader& r, const json::Value& v) {
  BranchSite b;
  auto* o = r.object(&v, "branch");
  b.id = static_cast<int>(r.integer(r.field(o, "id"), "id"));
  b.loc = readLoc(r, r.field(o, "loc"));
  b.kernel = r.string(r.field(o, "kernel"), "kernel");
  b.function = r.string(r.field(o, "function"), "function");
  b.kind = r.enumeration<BranchKind>(r.field(o, "kind"), "kind", static_cast<int>(BranchKind::Conditional));
  b.condition = r.string(r.field(o, "condition"), "condition");
  b.lineText = r.string(r.field(o, "lineText"), "lineText");
  b.block = readBlock(r, r.field(o, "block"));
  b.evaluated = r.boolean(r.field(o, "evaluated"), "evaluated");
  b.threadDependent = r.boolean(r.field(o, "threadDependent"), "threadDependent");
  b.warpRequests = r.integer(r.field(o, "warpRequests"), "warpRequests");
  b.divergentRequests = r.integer(r.field(o, "divergentRequests"), "divergentRequests");
  b.onlyPartialWarps = r.boolean(r.field(o, "onlyPartialWarps"), "onlyPartialWarps");
  b.assumptions = r.strings(r.field(o, "assumptions"), "assumptions");
  return b;
}

BarrierSite readBarrier(Reader& r, const json::Value& v) {
  BarrierSite b;
  auto* o = r.object(&v, "barrier");
  b.id = static_cast<int>(r.integer(r.field(o, "id"), "id"));
  b.loc = readLoc(r, r.field(o, "loc"));
  b.kernel = r.string(r.field(o, "kernel"), "kernel");
  b.function = r.string(r.field(o, "function"), "function");
  b.call = r.string(r.field(o, "call"), "call");
  b.lineText = r.string(r.field(o, "lineText"), "lineText");
  b.block = readBlock(r, r.field(o, "block"));
  b.reach = r.enumeration<BarrierSite::Reach>(r.field(o, "reach"), "reach",
                                              static_cast<int>(BarrierSite::Reach::Unknown));
  b.condition = r.string(r.field(o, "condition"), "condition");
  b.assumptions = r.strings(r.field(o, "assumptions"), "assumptions");
  return b;
}

PointerParam readPointerParam(Reader& r, const json::Value& v) {
  PointerParam p;
  auto* o = r.object(&v, "pointer parameter");
  p.kernel = r.string(r.field(o, "kernel"), "kernel");
  p.loc = readLoc(r, r.field(o, "loc"));
  p.name = r.string(r.field(o, "name"), "name");
  p.isRestrict = r.boolean(r.field(o, "isRestrict"), "isRestrict");
  p.read = r.boolean(r.field(o, "read"), "read");
  p.written = r.boolean(r.field(o, "written"), "written");
  return p;
}

KernelRecord readKernel(Reader& r, const json::Value& v) {
  KernelRecord k;
  auto* o = r.object(&v, "kernel");
  k.name = r.string(r.field(o, "name"), "name");
  k.loc = readLoc(r, r.field(o, "loc"));
  k.status = r.enumeration<Status>(r.field(o, "status"), "status", static_cast<int>(Status::Failed));
  k.reason = r.string(r.field(o, "reason"), "reason");
  k.accesses = static_cast<int>(r.integer(r.field(o, "accesses"), "accesses"));
  k.block = readBlock(r, r.field(o, "block"));
  return k;
}

FileRecord readFile(Reader& r, const json::Value& v) {
  FileRecord f;
  auto* o = r.object(&v, "file");
  f.path = r.string(r.field(o, "path"), "path");
  f.status = r.enumeration<Status>(r.field(o, "status"), "status", static_cast<int>(Status::Failed));
  f.error = r.string(r.field(o, "error"), "error");
  f.hostErrors = static_cast<int>(r.integer(r.field(o, "hostErrors"), "hostErrors"));
  f.diagnostics = r.strings(r.field(o, "diagnostics"), "diagnostics");
  return f;
}

template <class T, class Fn>
void readArray(Reader& r, const json::Object* top, std::string_view key, std::vector<T>& out, Fn read) {
  if (auto* a = r.array(r.field(top, key), key)) {
    out.reserve(a->size());
    for (const auto& v : *a) {
      out.push_back(read(r, v));
      if (!r.error.empty()) return;
    }
  }
}

const json::Object* parseTop(std::string_view text, json::Value& holder, Reader& r, std::string_view what) {
  auto parsed = json::parse(llvm::StringRef(text.data(), text.size()));
  if (!parsed) {
    r.error = "not JSON: " + llvm::toString(parsed.takeError());
    return nullptr;
  }
  holder = std::move(*parsed);
  auto* top = r.object(&holder, what);
  if (top && r.integer(r.field(top, "protocol"), "protocol") != kProtocolVersion && r.error.empty())
    r.error = "protocol version mismatch";
  return r.error.empty() ? top : nullptr;
}

}  // namespace

std::string recordsToJson(const AnalysisResult& records) {
  return print(json::Object{{"protocol", kProtocolVersion},
                            {"files", array(records.files, file)},
                            {"kernels", array(records.kernels, kernel)},
                            {"accesses", array(records.accesses, access)},
                            {"branches", array(records.branches, branch)},
                            {"barriers", array(records.barriers, barrier)},
                            {"pointerParams", array(records.pointerParams, pointerParam)}});
}

std::string recordsFromJson(std::string_view text, AnalysisResult& out) {
  Reader r;
  json::Value holder(nullptr);
  const json::Object* top = parseTop(text, holder, r, "records");
  if (!top) return r.error;
  AnalysisResult result;
  readArray(r, top, "files", result.files, readFile);
  readArray(r, top, "kernels", result.kernels, readKernel);
  readArray(r, top, "accesses", result.accesses, readAccess);
  readArray(r, top, "branches", result.branches, readBranch);
  readArray(r, top, "barriers", result.barriers, readBarrier);
  readArray(r, top, "pointerParams", result.pointerParams, readPointerParam);
  if (!r.error.empty()) return r.error;
  out = std::move(result);
  return {};
}

}  // namespace coalesce::analysis
