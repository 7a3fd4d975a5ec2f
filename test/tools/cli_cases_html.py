"""Cases of test/tools/cli_tests.py: the HTML report (--format=html, docs/html-report.md), its
escaping of hostile names and sources, and `verify --format html`. The page in a real browser:
html_browser_test.py."""
from html.parser import HTMLParser

from cli_harness import *  # noqa: F401,F403 (the cases use the harness's helpers and imports)

# Text a page must never carry unescaped: it would end the page's script, open a comment,
# or close an attribute.
HOSTILE_COMMENT = "// </script><!-- --> \"quoted\" 'single' & <b>bold</b>"


class PageShape(HTMLParser):
    """What a test needs to know about a page: its ids (each once), finding boxes, figures."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.duplicate_ids, self.findings, self.figures, self.svgs, self.scripts = set(), [], 0, 0, 0, 0
        self.pictures = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.duplicate_ids.append(a["id"])
            self.ids.add(a["id"])
        cls = (a.get("class") or "").split()
        if tag == "div" and "f" in cls:
            self.findings += 1
        if tag == "details" and "pic" in cls:
            self.pictures += 1
        self.figures += tag == "figure"
        self.svgs += tag == "svg"
        self.scripts += tag == "script"


def page_shape(path, run):
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, f"{path} is not valid UTF-8: {e}", run)
    shape = PageShape()
    shape.feed(text)
    shape.close()
    check(not shape.duplicate_ids, f"ids used twice: {shape.duplicate_ids[:5]}", run)
    check(shape.scripts == 1, f"{shape.scripts} <script> elements, expected the page's one", run)
    return text, shape


def findings_in_summary(run):
    m = re.search(r"; (\d+) findings? ", run.err)
    check(m, "no findings count in the summary line", run)
    return int(m.group(1))


@case("option: --format html on the examples")
def _(tmp):
    out = os.path.join(tmp, "r.html")
    before = tree_listing(os.path.join(SETTINGS.source_dir, "kernels"))
    r = lint("--format=html", "-o", out, "kernels/examples/", cwd=SETTINGS.source_dir, limit=600)
    expect_rc(r, 1)
    check(tree_listing(os.path.join(SETTINGS.source_dir, "kernels")) == before, "the run wrote into kernels/", r)
    text, shape = page_shape(out, r)
    n = findings_in_summary(r)
    check(n > 20 and shape.findings == n, f"{shape.findings} finding boxes for {n} findings", r)
    check(all(f"f{i}" in shape.ids for i in range(n)), "a finding without its anchor", r)
    # Every access finding: the warp as written and after the fix, two figures in a <details>;
    # a branch with the remap fix a third, its block as written (divergence_parity.cu).
    remapped = text.count("<b>The block as written</b>")
    check(remapped >= 1, "no divergent branch drawn with its block remapped", r)
    check(shape.pictures > 0 and shape.figures == 2 * shape.pictures + remapped,
          f"{shape.figures} figures for {shape.pictures} pictured findings ({remapped} remapped blocks)", r)
    check(shape.svgs >= shape.pictures, f"{shape.svgs} SVG pictures for {shape.pictures} findings", r)
    for rule in ("uncoalesced-global-access", "shared-bank-conflict", "aos-field-access", "divergent-branch"):
        check(f"<code>{rule}</code>" in text, f"no {rule} finding on the page", r)
    check("<section id=\"index\">" in text and "<section id=\"files\">" in text, "no index or files table", r)


@case("bad-input: hostile file names and source text in the HTML report")
def _(tmp):
    body = GOOD.replace("out[i] = in[2 * i];", "out[i] = in[2 * i];  " + HOSTILE_COMMENT)
    names = ["we\"ird'<b>&amp;name.cu", os.path.join("x", "<!--", "a</script>.cu"), "k<int>.cu"]
    for name in names:
        write(tmp, os.path.join("src", name), body)
    # A file name that is not UTF-8.
    with open(os.path.join(os.fsencode(tmp), b"src", b"latin\xe9\xff.cu"), "w") as f:
        f.write(body)
    r = lint("-q", "--format=html", "-o", "out.html", "src", cwd=tmp)
    expect_rc(r, 1)
    text, shape = page_shape(os.path.join(tmp, "out.html"), r)
    check(shape.findings == 4, f"{shape.findings} finding boxes, expected 4", r)
    check(text.count("<script") == 1 and text.count("</script") == 1, "a second <script> or </script>", r)
    check("<!--" not in text, "an unescaped <!--", r)
    for raw in ("we\"ird", "'<b>", "<b>bold", "\"quoted\"", "'single'", "k<int>"):
        check(raw not in text, f"unescaped {raw!r} on the page", r)
    for escaped in ("we&quot;ird&#39;&lt;b&gt;&amp;amp;name.cu", "&lt;!--", "a&lt;/script&gt;.cu", "k&lt;int&gt;.cu",
                    "&lt;/script&gt;&lt;!-- --&gt; &quot;quoted&quot; &#39;single&#39; &amp; &lt;b&gt;bold&lt;/b&gt;",
                    "latin\ufffd\ufffd.cu"):
        check(escaped in text, f"{escaped!r} not on the page", r)
    check(sorted(os.listdir(tmp)) == ["out.html", "src"], "the run wrote something besides -o", r)


@case("option: --format html to stdout")
def _(tmp):
    write(tmp, "good.cu", GOOD)
    r = lint("--format", "html", "good.cu", cwd=tmp)
    expect_rc(r, 1)
    check(r.out.startswith("<!DOCTYPE html>") and r.out.rstrip().endswith("</html>"), "not one HTML page", r)
    check("this warp: 8 sectors (ideal 4)" in r.out and "this warp: 4 sectors (ideal 4)" in r.out,
          "the warp picture as written (8 sectors) or after the fix (4) is missing", r)
    expect_summary(r, 1)


@case("option: verify --format html on recorded measurements")
def _(tmp):
    data = os.path.join("test", "verify", "data", "programs")
    args = ["verify", "--predictions", os.path.join(data, "verify_demo.predictions.json"), "--measurements",
            os.path.join(data, "verify_demo.measurements.json"), "--sass", os.path.join(data, "verify_demo.sass.txt")]
    j = lint(*args, "--format", "json", cwd=SETTINGS.source_dir)
    report = j.json()
    out = os.path.join(tmp, "v.html")
    r = lint(*args, "--format", "html", "-o", out, cwd=SETTINGS.source_dir)
    expect_rc(r, j.rc)
    text, shape = page_shape(out, r)
    for line in report["lines"]:
        place = f"{line['file']}:{line['line']}"
        check(place in text, f"{place} is not on the page", r)
    disagreements = sum(1 for l in report["lines"] if l["verdict"] == "mismatch") + \
        sum(1 for b in report.get("branches", []) if b["verdict"] == "contradicted")
    check(text.count("<tr class=\"dis\">") == disagreements, "disagreements not marked once each in the tables", r)
    check("<section id=\"sources\">" in text and "verify_demo.cu</h3>" in text, "no source view of verify_demo.cu", r)
