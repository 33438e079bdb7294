#!/usr/bin/env python3
# scripts/client-replies.d/ring3.py: makes the corpus cases of the third
# ring (issue 36; docs/client-replies.md): replies in other languages,
# built around pbem's real mail of today (templates' golden felix-bid)
# from the programs' own localisation strings, which
# scripts/client-replies.d/l10n.sh fetched into parser/testdata/l10n:
#
#   - Thunderbird set to "start my reply below the quote", in each
#     language its language packs translate the attribution into, with the
#     date and time as that language prints them (Node's Intl, the CLDR
#     short formats Thunderbird uses too);
#   - phones' localised footers (iOS Mail, Outlook, K-9 Mail) and
#     written sign-offs, on top of a localised quote;
#   - Outlook in Hebrew, whose plain part starts each line of a
#     right-to-left paragraph with U+200F.
#
# Usage, from the repository's root: python3 scripts/client-replies.d/ring3.py
# Needs node (Debian's nodejs) for the dates. It rewrites
# parser/testdata/corpus/felix-ring3-*.eml and .want; review the diff.
import csv, json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ringlib import *  # pbem's mail, quoting, MIME, headers and the case files

ORIG, ORIG_HTML = pbem_mail()
L10N = os.environ.get("L10N_DIR", ROOT + "/parser/testdata/l10n")

def table(name):
    with open(os.path.join(L10N, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))

# pbem's mail was sent on Sat 21 Nov 2026 at 16:00 UTC, 17:00 in Berlin.
def short_dates(locales):
    js = ("const d=new Date(Date.UTC(2026,10,21,16,0,5));const o={};"
          "for (const l of %s) o[l]=[new Intl.DateTimeFormat(l,{dateStyle:'short',timeZone:'Europe/Berlin'}).format(d),"
          "new Intl.DateTimeFormat(l,{timeStyle:'short',timeZone:'Europe/Berlin'}).format(d)];"
          "console.log(JSON.stringify(o));" % json.dumps(locales))
    return json.loads(subprocess.run(["node", "-e", js], check=True, capture_output=True, text=True).stdout)

def tb_headers(lang):
    return ("User-Agent: Mozilla Thunderbird\nContent-Language: %s\n" % lang)

cases = []
def case(name, want, headers, body, notes):
    write(name, headers, body, want, notes)
    cases.append(name)

# The Thunderbird languages whose case the parser of before issue 36
# (commit 784d38d) did not read: measured by running its TestCorpus on
# these cases.
UNREAD_BEFORE_36 = {"ar", "bg", "ca", "el", "fi", "he", "hr", "id", "ko", "nn", "pl", "ro", "ru", "sk", "sr", "th", "tr", "uk", "vi"}
ISSUE36_ITEM1 = "Issue 36, item 1: before, the attribution stayed as line 1 and the command below the quote was never read."

# 1. Thunderbird, reply below the quote, in every language with a
# translated "On #2 #3, #1 wrote:".
rows = [r for r in table("attributions.tsv") if r["program"] == "thunderbird" and r["key"] == "reply_header_ondateauthorwrote"]
dates = short_dates([r["lang"] for r in rows])
for r in rows:
    lang = r["lang"]
    date, time = dates[lang]
    attribution = r["form"].replace("{date}", date).replace("{time}", time).replace("{name}", "pbem")
    body = attribution + "\n" + quote(ORIG, "> ", ">") + "\n\nbid 7\n"
    h, b = single("text/plain; charset=UTF-8; format=flowed", "8bit", body)
    case("felix-ring3-thunderbird-%s-below" % lang.lower(), "bid 7\n",
         hdr(mid="5a1b2c3d-%s@y.test" % lang.lower(), extra=tb_headers(lang)) + h, b,
         ["Thunderbird 153 in %s with \"start my reply below the quote\": its attribution mailnews.reply_header_ondateauthorwrote as its "
          "language pack has it (thunderbird-l10n-%s, parser/testdata/l10n/attributions.tsv), the date and time in the locale's short "
          "forms; built here, Thunderbird cannot run here." % (lang, lang.lower()),
          ISSUE36_ITEM1 if lang in UNREAD_BEFORE_36 else "Read already before issue 36: the words of this attribution were known."])

# 2. Phones on top: a localised footer, then the phone's localised
# attribution and quote.
def phone(name, lang, reply, footer, attribution, extra, notes):
    date, time = short_dates([lang])[lang]
    a = attribution.replace("{date}", date).replace("{time}", time).replace("{name}", "pbem").replace("{address}", "game+g42@pbem.example")
    body = reply + "\n\n" + footer + "\n\n" + a + "\n\n" + quote(ORIG, "> ", ">") + "\n"
    h, b = single("text/plain; charset=utf-8", "quoted-printable", qp(body))
    case(name, reply.split("\n")[0] + "\n", hdr(mid="%s@y.test" % name, extra=extra) + h, b,
         notes + ["Issue 36, item 3: before, the command was read but the player was told reading stopped at the footer."])

footers = {(r["lang"], r["form"]) for r in table("footers.tsv")}
def footer(lang, form):
    assert (lang, form) in footers, (lang, form)
    return form

IOS = "X-Mailer: iPhone Mail (22B83)\n"
phone("felix-ring3-ios-zh-cn", "zh-CN", "bid 7", footer("zh-CN", "发自我的{device}").replace("{device}", "iPhone"), "在 {date} {time}，pbem <{address}> 写道：", IOS,
      ["iOS Mail in Simplified Chinese: its footer and attribution (a full-width comma and colon), in the shape iOS writes; built here."])
phone("felix-ring3-ios-ja", "ja", "bid 7", footer("ja", "{device}から送信").replace("{device}", "iPhone"), "{date} {time}、pbem <{address}>のメール:", IOS,
      ["iOS Mail in Japanese: its footer and attribution; built here."])
phone("felix-ring3-ios-nl", "nl", "bid 7", footer("nl", "Verstuurd vanaf mijn iPhone"), "Op {date} om {time} heeft pbem <{address}> het volgende geschreven:", IOS,
      ["iOS Mail in Dutch: its footer and attribution; built here."])
phone("felix-ring3-outlook-android-it", "it", "bid 7", footer("it", "Scarica Outlook per {device}").replace("{device}", "Android"),
      "Da: pbem <{address}>\nInviato: sabato, novembre 21, 2026 17:00\nA: bob@y.test\nOggetto: Felix #12", "X-Mailer: Outlook for Android\n",
      ["Outlook for Android in Italian: its footer, then its header block above the original; built here."])

# 3. Sign-offs with a name below.
def signoff(name, lang, text, attribution, notes):
    date, time = short_dates([lang])[lang]
    a = attribution.replace("{date}", date).replace("{time}", time).replace("{name}", "pbem")
    body = "bid 7\n\n" + text + "\n\n" + a + "\n" + quote(ORIG, "> ", ">") + "\n"
    h, b = single("text/plain; charset=UTF-8; format=flowed", "8bit", body)
    case(name, "bid 7\n", hdr(mid="%s@y.test" % name, extra=tb_headers(lang)) + h, b, notes)

signoffs = {(r["lang"], r["form"]) for r in table("signoffs.tsv")}
tb = {r["lang"]: r["form"] for r in rows}
for name, lang, so, person in [("felix-ring3-signoff-cs", "cs", "S pozdravem", "Jan Novák"), ("felix-ring3-signoff-pl", "pl", "Pozdrawiam,", "Jan Kowalski")]:
    assert {(lang, so), (lang, so + ","), (lang, so.rstrip(","))} & signoffs, (lang, so)
    signoff(name, lang, so + "\n" + person, tb[lang],
            ["Thunderbird in %s, reply on top, a written sign-off and the sender's name below the command (from signoffs.tsv); built here." % lang,
             "Issue 36, item 3: before, the command was read but the player was told reading stopped at the sign-off."])

# 4. Outlook in Hebrew: a right-to-left paragraph's plain text starts
# its lines with U+200F RIGHT-TO-LEFT MARK.
heb = "\u200fbid 3\n\u200f\n\u200fתודה\n\n________________________________\n\u200fמאת: pbem <game+g42@pbem.example>\n" \
      "\u200fנשלח: שבת, 21 בנובמבר 2026 17:00\n\u200fאל: bob@y.test\n\u200fנושא: Felix #12\n\n" + ORIG + "\n"
h, b = single('text/plain; charset="utf-8"', "base64", b64(heb))
case("felix-ring3-outlook-hebrew-rtl", "bid 3\n", hdr(mid="HE1PR01MB1234@HE1PR01MB1234.eurprd01.prod.outlook.com",
     extra="Content-Language: he-IL\nX-MS-Has-Attach:\nX-Mailer: Microsoft Outlook 16.0\n") + h, b,
     ["Outlook in Hebrew, a reply typed in a right-to-left paragraph: the plain part starts each line with U+200F; the rule and the "
      "header block above pbem's original; built here.",
      "Issue 36, item 2: before, \"\\u200fbid 3\" was not a command."])

print("\n".join(cases))
