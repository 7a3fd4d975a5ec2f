#!/usr/bin/env python3
"""The HTML report in a real browser (docs/html-report.md): Debian's Chromium, headless, opens
the pages of kernels/examples/, of a tree with hostile file names and sources, and of a verify
run on recorded measurements, and must log nothing on its console (a script error, a blocked
fetch); the script must have run (the buttons it reveals are visible in the DOM it leaves). Then
screenshots: the top of the examples' page must show the header and the index, and a page of two
examples must show a global warp picture (a row of lanes over a row of sectors with used and
wasted bytes) and a shared one (a bank's column of conflicting words), in the pictures'
colours. A page with a script error checks that the console check can fail.

Headless Chromium paints nothing when it screenshots a page scrolled to a #fragment, so the
pictures are found in one tall screenshot of the page instead.

    html_browser_test.py --binary build/tools/coalesce-lint/coalesce-lint --source-dir . [--keep DIR]

Exit 77 (ctest: skipped) when no Chromium or no PIL (Debian's python3-pil) is installed; --keep
DIR keeps the pages and the screenshots, and writes the crops docs/images/ holds (index, a
source view with a branch's remap fix, a warp with its fix, the verify page of test/gpu_redteam/).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
HOSTILE_COMMENT = "// </script><!-- --> \"quoted\" 'single' & <b>bold</b>"
GOOD = """__global__ void decimate(const float* __restrict__ in, float* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[2 * i];  %s
}
""" % HOSTILE_COMMENT
WINDOW = (1280, 1400)
TALL = 6000  # the pictures' page, in one screenshot
# The pictures' colours (lib/html/src/page_assets.cpp): lanes, used bytes, bytes moved for
# nothing, a word that needs another wavefront.
SKY, BLUE, ORANGE, VERMILLION = (0x56, 0xB4, 0xE9), (0x00, 0x72, 0xB2), (0xE6, 0x9F, 0x00), (0xD5, 0x5E, 0x00)
PICTURED = ["kernels/examples/global_stride2.cu", "kernels/examples/shared_stride32.cu"]


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(argv, cwd=None, timeout=600):
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout)


class Browser:
    def __init__(self, exe, work):
        self.exe, self.profile = exe, os.path.join(work, "profile")

    def _run(self, url, extra, height=WINDOW[1]):
        argv = [self.exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1",
                f"--user-data-dir={self.profile}", "--enable-logging=stderr", "--v=0",
                f"--window-size={WINDOW[0]},{height}", *extra, url]
        r = run(argv, timeout=180)
        console = [line for line in r.stderr.splitlines() if re.search(r":CONSOLE\b", line)]
        return r, console

    def dom(self, path):
        """The DOM after the page's script ran, and the console lines it logged."""
        r, console = self._run("file://" + os.path.abspath(path), ["--dump-dom"])
        check(r.returncode == 0, f"chromium --dump-dom failed on {path}: {r.stderr[-2000:]}")
        return r.stdout, console

    def screenshot(self, path, png, height=WINDOW[1]):
        url = "file://" + os.path.abspath(path)
        r, console = self._run(url, [f"--screenshot={png}"], height)
        check(r.returncode == 0 and os.path.exists(png), f"no screenshot of {url}: {r.stderr[-2000:]}")
        return console


def lint(binary, args, cwd, codes=(0, 1)):
    """Runs the tool; `codes` are the exit codes that still write a report (docs/cli.md)."""
    r = run([binary, *args], cwd=cwd)
    check(r.returncode in codes, f"coalesce-lint {' '.join(args)} exited {r.returncode}: {r.stderr[-2000:]}")


def make_pages(binary, src, work):
    pages = {}
    pages["examples"] = os.path.join(work, "examples.html")
    lint(binary, ["-q", "--format=html", "-o", pages["examples"], "kernels/examples/"], src)
    pages["pictures"] = os.path.join(work, "pictures.html")
    lint(binary, ["-q", "--format=html", "-o", pages["pictures"], *PICTURED], src)
    tree = os.path.join(work, "hostile")
    for name in ("we\"ird'<b>&amp;name.cu", os.path.join("x", "<!--", "a</script>.cu"), "k<int>.cu"):
        os.makedirs(os.path.dirname(os.path.join(tree, name)), exist_ok=True)
        with open(os.path.join(tree, name), "w") as f:
            f.write(GOOD)
    pages["hostile"] = os.path.join(work, "hostile.html")
    lint(binary, ["-q", "--format=html", "-o", pages["hostile"], tree], work)
    data = os.path.join("test", "verify", "data", "programs")
    pages["verify"] = os.path.join(work, "verify.html")
    lint(binary, ["verify", "--predictions", os.path.join(data, "verify_demo.predictions.json"), "--measurements",
                  os.path.join(data, "verify_demo.measurements.json"), "--sass",
                  os.path.join(data, "verify_demo.sass.txt"), "--format", "html", "-o", pages["verify"]], src,
         codes=(0, 1, 3))  # 3: a predicted line with no instruction, as verify_demo.cu has
    # The same measurements against the analyzer's own predictions, which carry each access's
    # lanes (lane_strides, block): the verify page draws the predicted warps.
    predicted = os.path.join(work, "verify_demo.predictions.json")
    lint(binary, ["-q", "--format=json", "-o", predicted, os.path.join(data, "verify_demo.cu")], src)
    pages["verify-drawn"] = os.path.join(work, "verify-drawn.html")
    lint(binary, ["verify", "--predictions", predicted, "--measurements",
                  os.path.join(data, "verify_demo.measurements.json"), "--sass",
                  os.path.join(data, "verify_demo.sass.txt"), "--format", "html", "-o", pages["verify-drawn"]], src,
         codes=(0, 1, 3))
    return pages


# Text that each page's DOM must hold: every kind of finding drawn (gaps of issue 17).
DRAWN = {
    # barrier_divergent.cu: the threads that reach the barrier, as written and after the fix.
    "examples": ["threads reach the barrier", "<b>After the fix</b> (the barrier moved out of the branch",
                 # reduction_interleaved_divergent.cu: the split after sequential addressing.
                 "<b>After the fix</b> (sequential addressing",
                 # divergence_parity.cu: the block remapped, the first threads taking the branch;
                 # warp_shuffle_reduction.cu's leader lanes: why no fix is drawn.
                 "<b>After the fix</b> (the work remapped", "No picture: one lane of every warp takes one side"],
    # The verify page of the analyzer's predictions: a predicted warp beside the measured figure.
    "verify-drawn": ["<b>Predicted</b> <code>", "<b>Measured</b>: ", '<svg class="w"'],
}


def near(pixel, colour, tolerance=24):
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour))


def rows_with(image, colour, minimum):
    """Rows of the image holding at least `minimum` pixels of `colour`."""
    width, height = image.size
    px = image.load()
    return [y for y in range(height) if sum(1 for x in range(width) if near(px[x, y], colour)) >= minimum]


def columns_with(image, colour, minimum):
    """Columns of the image holding at least `minimum` pixels of `colour`."""
    width, height = image.size
    px = image.load()
    return [x for x in range(width) if sum(1 for y in range(height) if near(px[x, y], colour)) >= minimum]


def check_index_screenshot(png):
    from PIL import Image
    image = Image.open(png).convert("RGB")
    width, height = image.size
    px = image.load()
    header = sum(1 for x in range(width) if near(px[x, 10], (0x1d, 0x27, 0x33), 8))
    check(header > width * 0.9, f"{png}: no dark header band at the top ({header} of {width} pixels)")
    # The summary and the index below it: text on most rows of the upper part of the page.
    inked = [y for y in range(80, height) if sum(1 for x in range(0, width, 2) if sum(px[x, y]) < 450) >= 3]
    check(len(inked) > (height - 80) * 0.3, f"{png}: only {len(inked)} rows with text below the header")


def check_picture_screenshot(png):
    """Returns the first global picture's rows (lanes, sectors), for a crop."""
    from PIL import Image
    image = Image.open(png).convert("RGB")
    lanes = rows_with(image, SKY, 300)  # 32 lanes of 15 pixels each, side by side
    check(len(lanes) >= 8, f"{png}: no row of lanes in a global warp picture ({len(lanes)} rows)")
    used = rows_with(image, BLUE, 100)
    wasted = set(rows_with(image, ORANGE, 100))
    sectors = [y for y in used if y in wasted]
    check(len(sectors) >= 8, f"{png}: no row of sectors with used and wasted bytes ({len(sectors)} rows)")
    check(min(sectors) > min(lanes), f"{png}: the sectors are not drawn below the lanes")
    # A 32-way conflict: one bank's column of 31 extra wavefronts, taller than any badge.
    stacked = columns_with(image, VERMILLION, 300)
    check(len(stacked) >= 8, f"{png}: no bank column of conflicting words in a shared picture ({len(stacked)})")
    return min(lanes), min(sectors)


def save_small(image, path):
    """A PNG for docs/images/: a palette of 128 colours keeps it small (under ~300 KB)."""
    from PIL import Image
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def keep_crops(index_png, picture_png, rows, folder):
    """The screenshots docs/images/ shows: the top of the index, a finding with its pictures."""
    from PIL import Image
    save_small(Image.open(index_png).convert("RGB").crop((0, 0, WINDOW[0], 1000)),
               os.path.join(folder, "html-report-index.png"))
    top = max(0, rows[0] - 330)
    save_small(Image.open(picture_png).convert("RGB").crop((0, top, WINDOW[0], top + 900)),
               os.path.join(folder, "html-report-warp.png"))


def keep_source_crop(browser, examples_page, work, folder):
    """The source view of divergence_parity.cu on the examples' page, with its finding and the
    remap fix drawn: found as the first row of a picture's false lanes (orange) in a tall
    screenshot (the index's orange badges are too narrow to count)."""
    from PIL import Image
    tall = os.path.join(work, "examples-tall.png")
    browser.screenshot(examples_page, tall, 16000)
    image = Image.open(tall).convert("RGB")
    orange = rows_with(image, ORANGE, 200)
    check(orange, f"{tall}: no branch picture with false lanes (orange) on the examples' page")
    top = max(0, orange[0] - 850)
    save_small(image.crop((0, top, WINDOW[0], top + 1550)), os.path.join(folder, "html-report-source.png"))


def keep_verify_crop(binary, src, browser, work, folder):
    """The verify page of test/gpu_redteam/ against its recorded H200 measurements
    (test/verify/data/redteam/), as test/verify/redteam_recorded.py compares them."""
    from PIL import Image
    data = os.path.join(src, "test", "verify", "data", "redteam")
    with open(os.path.join(data, "programs.txt")) as f:
        inputs = [line.strip() for line in f if line.strip()]
    predictions = os.path.join(work, "redteam.predictions.json")
    lint(binary, ["--format=json", "-q", "--no-cache", "-o", predictions, *inputs], src)
    page = os.path.join(work, "redteam-verify.html")
    measurements = sorted(os.path.join(data, n) for n in os.listdir(data) if n.startswith("measurements_"))
    lint(binary, ["verify", "--predictions", predictions, "--measurements", *measurements, "--format", "html", "-o",
                  page], src)
    png = os.path.join(work, "redteam-verify.png")
    browser.screenshot(page, png)
    save_small(Image.open(png).convert("RGB").crop((0, 0, WINDOW[0], 1000)),
               os.path.join(folder, "html-report-verify.png"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--keep", help="keep the pages and screenshots in this folder")
    a = ap.parse_args()
    exe = find_chromium()
    if not exe:
        print("SKIPPED: no chromium on PATH (Debian: apt-get install chromium)")
        return SKIP
    try:
        import PIL  # noqa: F401
    except ImportError:
        # Debian's python3-pil serves Debian's python3; a python3 found first on PATH (pyenv,
        # a virtual environment) may lack it: run again under Debian's.
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.access(system, os.X_OK) and \
                run([system, "-c", "import PIL"]).returncode == 0:
            os.execv(system, [system, os.path.abspath(__file__), *sys.argv[1:]])
        print("SKIPPED: python3-pil is not installed (Debian: apt-get install python3-pil)")
        return SKIP
    binary, src = os.path.abspath(a.binary), os.path.abspath(a.source_dir)
    work = tempfile.mkdtemp(prefix="coalesce-html-")
    try:
        browser = Browser(exe, work)
        # The console check must be able to fail: a page with a script error is caught.
        broken = os.path.join(work, "broken.html")
        with open(broken, "w") as f:
            f.write("<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>")
        _, console = browser.dom(broken)
        check(console, "a page with a script error logged nothing: the console check cannot see errors")

        pages = make_pages(binary, src, work)
        for name, page in pages.items():
            dom, console = browser.dom(page)
            check(not console, f"{name}: the console says:\n" + "\n".join(console))
            check("</main>" in dom, f"{name}: the DOM has no <main>: the page did not load")
            if not name.startswith("verify"):
                check(re.search(r'<button type="button" class="tg" data-open="1">', dom),
                      f"{name}: the script did not run to its end (the buttons it shows are hidden)")
            for text in DRAWN.get(name, []):
                check(text in dom, f"{name}: the page does not show {text!r}")
        with open(pages["hostile"], encoding="utf-8") as f:
            hostile = f.read()
        check(hostile.count("<script") == 1 and "<!--" not in hostile, "hostile: an unescaped <script> or <!--")

        index_png = os.path.join(work, "index.png")
        console = browser.screenshot(pages["examples"], index_png)
        check(not console, "examples (screenshot): the console says:\n" + "\n".join(console))
        check_index_screenshot(index_png)
        picture_png = os.path.join(work, "pictures.png")
        console = browser.screenshot(pages["pictures"], picture_png, TALL)
        check(not console, "pictures (screenshot): the console says:\n" + "\n".join(console))
        rows = check_picture_screenshot(picture_png)
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            verify_png = os.path.join(work, "verify.png")
            browser.screenshot(pages["verify"], verify_png)
            for path in [*pages.values(), index_png, picture_png, verify_png]:
                shutil.copy(path, a.keep)
            keep_crops(index_png, picture_png, rows, a.keep)
            keep_source_crop(browser, pages["examples"], work, a.keep)
            keep_verify_crop(binary, src, browser, work, a.keep)
        print(f"PASS: {len(pages)} pages open without console messages; the index and the warp pictures render")
        return 0
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
