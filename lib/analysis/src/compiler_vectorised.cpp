#include "compiler_vectorised.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <algorithm>
#include <map>
#include <set>

#include "lane_evaluator.h"

namespace coalesce::analysis {

namespace {

// The loop's trip count when its condition is a constant in the iteration counter alone (a
// template parameter or a literal bound: `i < imgsPerThread`), up to `most`; else none.
std::optional<int> constantTrips(const SymbolInfo& s, int id, int most) {
  if (!s.loopCond || s.loopNext || s.testAfter) return std::nullopt;  // arithmetic loops only
  Bindings b;
  for (int k = 0; k <= most; ++k) {
    b.symbols[id] = k;
    const std::optional<int64_t> holds = evaluate(s.loopCond, b);
    if (!holds) return std::nullopt;  // reads something else: the count is no constant
    if (*holds == 0) return k;
  }
  return std::nullopt;
}

// CUDA's vector types whose alignment is their size (vector_types.h): the bytes of one
// component and their count. The 3-component types are aligned as one component: never merged.
std::optional<std::pair<int, int>> vectorLayout(const std::string& type) {
  static const std::map<std::string, std::pair<int, int>> kTypes = {
      {"char2", {1, 2}},     {"uchar2", {1, 2}},    {"char4", {1, 4}},     {"uchar4", {1, 4}},
      {"short2", {2, 2}},    {"ushort2", {2, 2}},   {"short4", {2, 4}},    {"ushort4", {2, 4}},
      {"int2", {4, 2}},      {"uint2", {4, 2}},     {"float2", {4, 2}},    {"int4", {4, 4}},
      {"uint4", {4, 4}},     {"float4", {4, 4}},    {"long2", {8, 2}},     {"ulong2", {8, 2}},
      {"longlong2", {8, 2}}, {"ulonglong2", {8, 2}}, {"double2", {8, 2}}};
  const auto it = kTypes.find(type);
  return it == kTypes.end() ? std::nullopt : std::optional<std::pair<int, int>>(it->second);
}

// "uint4::y" -> ("uint4", 1); nothing for another element type.
std::optional<std::pair<std::string, int>> vectorComponent(const std::string& elementType) {
  const size_t at = elementType.rfind("::");
  if (at == std::string::npos || at + 3 != elementType.size()) return std::nullopt;
  const char c = elementType.back();
  const int index = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : c == 'w' ? 3 : -1;
  if (index < 0) return std::nullopt;
  std::string type = elementType.substr(0, at);
  if (const size_t space = type.rfind(' '); space != std::string::npos) type = type.substr(space + 1);  // "struct uint4"
  return std::make_pair(type, index);
}

// `s[t].y` -> `s[t]`, `a.x` -> `a`: what the component is read through.
std::string objectText(const std::string& expression) {
  const size_t dot = expression.rfind('.');
  return dot == std::string::npos ? std::string() : expression.substr(0, dot);
}

bool sameGuards(const RawAccess& a, const RawAccess& b) {
  if (a.guards.size() != b.guards.size()) return false;
  for (size_t i = 0; i < a.guards.size(); ++i)
    if (!sameStructure(a.guards[i], b.guards[i])) return false;
  return true;
}

// The form's terms are the same leaves with the same coefficients.
bool sameTerms(const AffineForm& a, const AffineForm& b) {
  if (a.terms.size() != b.terms.size()) return false;
  for (size_t i = 0; i < a.terms.size(); ++i)
    if (a.terms[i].coef != b.terms[i].coef || !sameStructure(a.terms[i].leaf, b.terms[i].leaf)) return false;
  return true;
}

}  // namespace

std::vector<std::optional<CompilerVectorised>> vectorComponentsMerged(const std::vector<SeenAccess>& accesses) {
  std::vector<std::optional<CompilerVectorised>> out(accesses.size());
  // Runs of accesses to one object's components, split where another shared object is touched.
  std::vector<size_t> run;
  const auto close = [&]() {
    if (run.size() < 2) {
      run.clear();
      return;
    }
    const SeenAccess& first = accesses[run.front()];
    const std::string type = vectorComponent(first.elementType)->first;
    const auto [componentBytes, count] = *vectorLayout(type);
    // The elements the run reaches, by kind: one helper's `target[offset].x = v.x; ...` called
    // for several offsets (gpumembench's set_vector, six calls) is one run of one text, each
    // call's element its own (the same terms, the same first byte).
    struct Element {
      AffineForm form;
      int64_t start = 0;              // the element's first byte in the linearised offset
      std::map<int, size_t> byIndex;  // each component present, with the member that reaches it
    };
    for (const model::AccessKind kind : {model::AccessKind::Load, model::AccessKind::Store}) {
      std::vector<Element> elements;
      for (size_t i : run) {
        const SeenAccess& s = accesses[i];
        if (s.raw.kind != kind) continue;
        const std::optional<AffineForm> form = linearize(s.raw.offset);
        if (!form) continue;
        const int index = vectorComponent(s.elementType)->second;
        const int64_t start = form->constant - static_cast<int64_t>(index) * componentBytes;
        auto at = std::find_if(elements.begin(), elements.end(),
                               [&](const Element& e) { return e.start == start && sameTerms(e.form, *form); });
        if (at == elements.end()) at = elements.insert(elements.end(), Element{*form, start, {}});
        at->byIndex.emplace(index, i);  // a component reached twice (a load after a store) keeps its first
      }
      for (const Element& element : elements) {
        const std::map<int, size_t>& byIndex = element.byIndex;
        // nvcc's widths: the whole element when every component is there, else aligned pairs.
        std::vector<std::pair<int, int>> spans;  // (first component, components)
        if (static_cast<int>(byIndex.size()) == count) {
          spans.push_back({0, count});
        } else if (count == 4) {
          for (int pair : {0, 2})
            if (byIndex.count(pair) && byIndex.count(pair + 1)) spans.push_back({pair, 2});
        }
        for (const auto& [from, n] : spans) {
          const int64_t width = static_cast<int64_t>(n) * componentBytes;
          const SeenAccess& lead = accesses[byIndex.at(from)];
          const std::optional<AffineForm> form = linearize(lead.raw.offset);
          // Every lane's first byte aligned to the width: the constant and each term's coefficient.
          bool aligned = form && form->constant % width == 0 && lead.raw.rootAlignment % width == 0;
          for (const AffineTerm& t : form ? form->terms : std::vector<AffineTerm>{}) aligned = aligned && t.coef % width == 0;
          if (!aligned) continue;
          CompilerVectorised merged;
          merged.raw = lead.raw;
          merged.raw.bytes = static_cast<int>(width);
          std::string names;
          for (int c = from; c < from + n; ++c) names += std::string(1, "xyzw"[c]) + (c + 1 < from + n ? ", " : "");
          merged.note = "nvcc merges this thread's " + std::string(kind == model::AccessKind::Load ? "loads" : "stores") +
                        " of " + names + " of one " + type + " into one " + std::to_string(width) +
                        "-byte access (ld/st.shared.v" + std::to_string(n) + "): the figures are that access's";
          for (int c = from; c < from + n; ++c) out[byIndex.at(c)] = merged;
        }
      }
    }
    run.clear();
  };
  for (size_t i = 0; i < accesses.size(); ++i) {
    const SeenAccess& s = accesses[i];
    if (s.raw.space != model::Space::Shared) continue;
    const auto component = vectorComponent(s.elementType);
    const bool candidate = component && vectorLayout(component->first) && s.raw.kind != model::AccessKind::Atomic &&
                           !objectText(s.expression).empty();
    if (!run.empty()) {
      const SeenAccess& first = accesses[run.front()];
      const bool joins = candidate && component->first == vectorComponent(first.elementType)->first &&
                         objectText(s.expression) == objectText(first.expression) && s.function == first.function &&
                         s.loops == first.loops && s.raw.rootName == first.raw.rootName &&
                         s.raw.rootParam == first.raw.rootParam && sameGuards(s.raw, first.raw);
      if (joins) {
        run.push_back(i);
        continue;
      }
      close();
    }
    if (candidate) run.push_back(i);
  }
  close();
  return out;
}

std::optional<CompilerVectorised> compilerVectorised(const SeenAccess& s, const SymbolTable& symbols,
                                                     const LoopVariables& loopVariables) {
  const RawAccess& raw = s.raw;
  if (raw.space != model::Space::Shared || raw.kind == model::AccessKind::Atomic || s.loops.empty()) return std::nullopt;
  if (raw.bytes != 4 && raw.bytes != 8) return std::nullopt;
  // An `extern __shared__ float s[]` merges as a static array does: nvcc declares it
  // `.extern .shared .align 16` whatever its element type, and ptxas merged its 4 words into
  // one LDS.128 on the H200 (bench/shared_merge/h200/COMMAND.txt). Session 15 had required a
  // declared alignment of 16 and reported a conflict the hardware did not have.
  const int loop = s.loops.back();
  int id = -1;
  if (auto vars = loopVariables.find(loop); vars != loopVariables.end())
    for (int v : vars->second)
      if (symbols[v].tripOf < 0 && symbols[v].exitOf < 0) {
        id = v;
        break;
      }
  if (id < 0) return std::nullopt;
  const std::optional<int> trips = constantTrips(symbols[id], id, 4);
  if (!trips || (*trips != 2 && *trips != 4) || *trips * raw.bytes > 16) return std::nullopt;
  const int64_t width = static_cast<int64_t>(*trips) * raw.bytes;
  // Every iteration runs for every lane that runs the first (no guard reads the counter but
  // the loop's own condition, which holds for each of the constant count's iterations).
  for (const ExprRef& g : raw.guards) {
    if (sameStructure(g, symbols[id].loopCond)) continue;
    std::set<int> read;
    lanes::collectSymbols(g, read);
    if (read.count(id)) return std::nullopt;
  }
  // The address steps one element per iteration, and every lane's first element is aligned to
  // the merged width whatever the other values are (each other term a multiple of it).
  const std::optional<AffineForm> form = linearize(raw.offset);
  if (!form || form->constant % width != 0 || raw.rootAlignment % width != 0) return std::nullopt;
  bool stepsOne = false;
  for (const AffineTerm& t : form->terms) {
    if (t.leaf->op == Op::Symbol && t.leaf->symbolId == id) {
      if (t.coef != raw.bytes || stepsOne) return std::nullopt;
      stepsOne = true;
      continue;
    }
    std::set<int> read;
    lanes::collectSymbols(t.leaf, read);
    if (read.count(id) || t.coef % width != 0) return std::nullopt;
  }
  if (!stepsOne) return std::nullopt;
  CompilerVectorised out;
  out.raw = raw;
  out.raw.bytes = static_cast<int>(width);
  out.raw.offset = substitute(raw.offset, [&](const ExprRef& leaf) -> ExprRef {
    return leaf->op == Op::Symbol && leaf->symbolId == id ? constant(0) : nullptr;
  });
  out.trips = *trips;
  out.loop = loop;
  out.note = "nvcc unrolls the " + std::to_string(*trips) + " iterations of `" + symbols[id].loopText +
             "` and merges this thread's " + std::to_string(*trips) + " accesses of consecutive " +
             std::to_string(raw.bytes) + "-byte words into one " + std::to_string(width) +
             "-byte access (its first word aligned to " + std::to_string(width) +
             " bytes for every lane): the figures are that access's, once per " + std::to_string(*trips) +
             " iterations";
  return out;
}

}  // namespace coalesce::analysis
