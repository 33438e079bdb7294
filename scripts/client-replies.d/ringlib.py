# scripts/client-replies.d/ringlib.py: what the scripts that build corpus
# cases around pbem's real mail share (ring2.py, ring3.py): pbem's "your
# turn to bid" mail (pbem_mail), quoting, MIME encodings, headers, and
# writing a case's .eml and .want. CORPUS_OUT=DIR writes the cases there
# instead of parser/testdata/corpus.
import base64, quopri, re, os, subprocess, sys, tempfile, textwrap
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.environ.get("CORPUS_OUT", ROOT + "/parser/testdata/corpus") + "/"
MARKER = "--- pbem: write your commands above this line ---"
SUBJ = "Felix #12: your turn to bid (round 2)"

def pbem_mail(golden_dir=ROOT + "/templates/testdata/golden"):
    """pbem's "your turn to bid" mail, text and HTML, from the templates'
    goldens felix-bid in golden_dir, with the daemon's reply marker."""
    def golden(name):
        return open(os.path.join(golden_dir, name), encoding="utf-8").read()
    txt = golden("felix-bid.txt").split("\n\n", 1)[1]
    if "[footer-game.txt]" in txt:  # goldens before issue 33 kept the footer apart
        txt = txt.replace("[footer-game.txt]\n", golden("footer-game.txt"))
    txt = re.sub(r"(?m)^.*write your reply above this line.*$", MARKER, txt)
    html = golden("felix-bid.html").split("\n", 1)[1]
    if "[footer-game.html]" in html:
        html = html.replace("[footer-game.html]\n", golden("footer-game.html"))
    html = re.sub(r"<p[^>]*>[^<]*write your reply above this line[^<]*</p>", "<p>" + MARKER + "</p>", html)
    return txt.rstrip("\n"), html.rstrip("\n")

def quote(text, prefix="> ", empty=">"):
    return "\n".join(prefix + l if l else empty for l in text.split("\n"))

def qp(s, charset="utf-8"):
    b = s.replace("\n", "\r\n").encode(charset)
    return quopri.encodestring(b).decode("ascii").replace("\r\n", "\n").replace("=\n", "=\n")

def b64(s, charset="utf-8"):
    e = base64.encodebytes(s.encode(charset)).decode("ascii")
    return e

COMMON = """Return-Path: <bob@y.test>
Delivered-To: game+g42@pbem.example
From: {frm}
To: {to}
Subject: Re: Felix #12: your turn to bid (round 2)
Date: Sun, 22 Nov 2026 21:14:03 +0100
Message-ID: <{mid}>
In-Reply-To: <pbem.r2t9bid@pbem.example>
References: <pbem.g12invite@pbem.example> <pbem.r2t9bid@pbem.example>
"""

def write(name, headers, body, want, notes):
    path = OUT + name
    with open(path + ".eml", "w", encoding="utf-8", newline="") as f:
        f.write(headers + "\n" + body)
    with open(path + ".want", "w", encoding="utf-8") as f:
        for n in notes:
            for l in textwrap.wrap(n, 70, break_on_hyphens=False, break_long_words=False):
                f.write("# " + l + "\n")
        f.write(want)

def hdr(frm="Bob Baker <bob@y.test>", to="pbem <game+g42@pbem.example>", mid="x@y.test", extra=""):
    return COMMON.format(frm=frm, to=to, mid=mid) + extra

def single(ctype, cte, body):
    return "MIME-Version: 1.0\nContent-Type: %s\n%s" % (ctype, ("Content-Transfer-Encoding: %s\n" % cte) if cte else ""), body

def alternative(boundary, parts):
    h = 'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="%s"\n' % boundary
    b = ""
    for ctype, cte, body in parts:
        b += "--%s\nContent-Type: %s\nContent-Transfer-Encoding: %s\n\n%s\n" % (boundary, ctype, cte, body.rstrip("\n"))
    b += "--%s--\n" % boundary
    return h, b

