#!/usr/bin/env python3
"""Print attributions.tsv from the packages l10n.sh unpacked into WORK.

Columns: lang, program, key, form, raw.
  form  the program's string with its placeholders renamed to {name},
        {date}, {time} (and, for Evolution, {weekday} and {zone});
        a line break is written \\n, a tab \\t.
  raw   the same string exactly as the program's file has it.
Rows are sorted by lang, program, key. See docs/l10n-sources.md.
"""
import glob
import os
import re
import struct
import sys

# The languages the tables cover; gettext locale -> tag.
GETTEXT_LANGS = {
    "ar": "ar", "bg": "bg", "ca": "ca", "cs": "cs", "da": "da", "de": "de",
    "el": "el", "el_GR": "el", "es": "es", "fa": "fa", "fi": "fi",
    "fr": "fr", "he": "he", "hi": "hi", "hr": "hr", "hu": "hu", "id": "id",
    "id_ID": "id", "it": "it", "ja": "ja", "ko": "ko", "nb": "nb",
    "nn": "nn", "nl": "nl", "pl": "pl", "pt_BR": "pt-BR", "pt": "pt-PT",
    "ro": "ro", "ru": "ru", "sk": "sk", "sr": "sr", "sr@latin": "sr-Latn",
    "sv": "sv", "th": "th", "tr": "tr", "uk": "uk", "vi": "vi",
    "zh_CN": "zh-CN", "zh_TW": "zh-TW",
}


def tsv(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


# --- Thunderbird -----------------------------------------------------------

TB_COMPOSE = [
    "mailnews.reply_header_authorwrotesingle",
    "mailnews.reply_header_ondateauthorwrote",
    "mailnews.reply_header_authorwroteondate",
    "mailnews.reply_header_originalmessage",
    "mailnews.forward_header_originalmessage",
]
# mime.properties numbers of the header names Thunderbird writes in an
# inline forward (and in the "original message" header block).
TB_MIME = {"1000": "header_subject", "1007": "header_date",
           "1009": "header_from", "1012": "header_to", "1013": "header_cc"}


def read_properties(path):
    props = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, sep, value = line.partition("=")
            if sep:
                props[key.strip()] = value.lstrip()
    return props


def tb_form(raw):
    return (raw.replace("#1", "{name}").replace("#2", "{date}")
            .replace("#3", "{time}"))


def thunderbird(work):
    for langdir in sorted(glob.glob(os.path.join(work, "tb", "*"))):
        lang = os.path.basename(langdir)
        compose = glob.glob(langdir + "/**/composeMsgs.properties",
                            recursive=True)
        mime = glob.glob(langdir + "/**/mime.properties", recursive=True)
        if compose:
            props = read_properties(compose[0])
            for key in TB_COMPOSE:
                if key in props:
                    raw = props[key]
                    yield lang, "thunderbird", key[len("mailnews."):], \
                        tb_form(raw), raw
        if mime:
            props = read_properties(mime[0])
            for num, key in TB_MIME.items():
                if num in props:
                    yield lang, "thunderbird", key, props[num], props[num]


# --- gettext programs ------------------------------------------------------

def catalogues(work, domain):
    pattern = os.path.join(work, "root/usr/share/locale/*/LC_MESSAGES",
                           domain + ".mo")
    for path in sorted(glob.glob(pattern)):
        locale = path.split(os.sep)[-3]
        if locale in GETTEXT_LANGS:
            yield GETTEXT_LANGS[locale], read_mo(path)


def read_mo(path):
    """The msgid -> msgstr table of a .mo file, as msgunfmt shows it.

    Python's gettext module is not used: it fails on a catalogue whose
    header is not UTF-8. A msgid with a context is "context\\x04msgid";
    of plural forms only the first is kept.
    """
    with open(path, "rb") as f:
        data = f.read()
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    count, orig, trans = struct.unpack(order + "3I", data[8:20])

    def entry(table, i):
        length, offset = struct.unpack(order + "2I",
                                       data[table + 8 * i:table + 8 * i + 8])
        return data[offset:offset + length]

    raw = [(entry(orig, i), entry(trans, i)) for i in range(count)]
    charset = "utf-8"
    for mid, mstr in raw:
        if mid == b"":
            m = re.search(rb"charset=([-\w]+)", mstr)
            if m:
                charset = m.group(1).decode("ascii")
    table = {}
    for mid, mstr in raw:
        if mid and mstr:
            table[mid.split(b"\0")[0].decode(charset)] = \
                mstr.split(b"\0")[0].decode(charset)
    return table


EVO_DATE = r"\$\{(?:Year|Month|Day|MonthName)\}"
EVO_DATE_RUN = re.compile(EVO_DATE + r"(?:(?:[-./ ]{1,2}| de |de-| de-de )"
                          + EVO_DATE + r")*")
EVO_TIME = re.compile(r"\$\{(?:24|12)Hour\}[:.∶]\$\{Minute\}")


def evolution_form(raw):
    s = EVO_DATE_RUN.sub("{date}", raw)
    s = EVO_TIME.sub("{time}", s)
    for tok, ph in (("AbbrevWeekdayName", "{weekday}"),
                    ("WeekdayName", "{weekday}"), ("TimeZone", "{zone}"),
                    ("Sender", "{name}")):
        s = s.replace("${%s}" % tok, ph)
    return s


CLAWS_CONV = [("%D{%F}", "{date}"), ("%D{%T}", "{time}"), ("%d", "{date}"),
              ("%f", "{name}"), ("%N", "{name}")]


def claws_form(raw):
    s = raw
    for a, b in CLAWS_CONV:
        s = s.replace(a, b)
    return s.replace("\\n", "\n")


def strip_quote(raw):
    """Claws's format goes on to the quote (%q) and the signature (%X)."""
    return re.sub(r"(\\n)*%q.*$", "", raw)


def kmail_form(raw, order):
    s = raw
    for num, ph in order.items():
        s = s.replace(num, ph)
    return s


GETTEXT_STRINGS = [
    # program, domain, key, msgid (with "ctx\x04" prefix when it has one),
    # function from the translation to (form, raw) or None to skip it.
    ("evolution", "evolution", "attribution",
     "On ${AbbrevWeekdayName}, ${Year}-${Month}-${Day} at ${24Hour}:${Minute}"
     " ${TimeZone}, ${Sender} wrote:",
     lambda t: (evolution_form(t), t)),
    ("evolution", "evolution", "original_message",
     "-----Original Message-----", lambda t: (t, t)),
    ("evolution", "evolution", "forwarded_message",
     "-------- Forwarded Message --------", lambda t: (t, t)),
    ("claws-mail", "claws-mail", "quote_format",
     "On %d\\n%f wrote:\\n\\n%q",
     lambda t: (claws_form(strip_quote(t)),
                strip_quote(t).replace("\\n", "\n")) if "%q" in t else None),
    ("claws-mail", "claws-mail", "forward_format",
     "\\n\\nBegin forwarded message:\\n\\n?d{Date: %d\\n}?f{From: %f\\n}"
     "?t{To: %t\\n}?c{Cc: %c\\n}?n{Newsgroups: %n\\n}?s{Subject: %s\\n}"
     "\\n\\n%M",
     lambda t: ((lambda first: (first, first))(
         t.replace("\\n", "\n").strip("\n").split("\n")[0])
         if "%M" in t else None)),
    ("geary", "geary", "authorwrote", "%s wrote:",
     lambda t: (t.replace("%s", "{name}"), t)),
    ("geary", "geary", "ondateauthorwrote", "On %1$s, %2$s wrote:",
     lambda t: (t.replace("%1$s", "{date}").replace("%2$s", "{name}"), t)),
    ("geary", "geary", "forwarded_message",
     "---------- Forwarded message ----------", lambda t: (t, t)),
    ("mutt", "mutt", "attribution", "On %d, %n wrote:",
     lambda t: (t.replace("%d", "{date}").replace("%n", "{name}"), t)),
    ("mutt", "mutt", "forward_intro", "----- Forwarded message from %f -----",
     lambda t: (t.replace("%f", "{name}"), t)),
    ("kmail", "libtemplateparser", "reply_all",
     "Default reply all template: %1: date, %2: time, %3: name of original "
     "sender, %4: quoted text of original message, %5: cursor position\x04"
     "On %1 %2 %3 wrote:\n%4\n%5",
     lambda t: (lambda a: (kmail_form(a, {"%1": "{date}", "%2": "{time}",
                                          "%3": "{name}"}), a))(
         t.split("\n")[0])),
    ("kmail", "libtemplateparser", "reply",
     "Default reply template.%1: date of original message, %2: time of "
     "original message, %3: quoted text of original message, %4: cursor "
     "Position\x04On %1 %2 you wrote:\n%3\n%4",
     lambda t: (lambda a: (kmail_form(a, {"%1": "{date}", "%2": "{time}"}),
                           a))(t.split("\n")[0])),
    ("kmail", "libtemplateparser", "forwarded_message",
     "Default forward template: %1: subject of original message, %2: date of "
     "original message, %3: time of original message, %4: mail address of "
     "original sender, %5: original message text\x04\n----------  Forwarded "
     "Message  ----------\n\nSubject: %1\nDate: %2, %3\nFrom: %4\n"
     "%OADDRESSEESADDR\n\n%5\n-----------------------------------------",
     lambda t: (lambda a: (a, a))(t.strip("\n").split("\n")[0])),
]


def gettext_rows(work):
    for program, domain, key, msgid, conv in GETTEXT_STRINGS:
        found = False
        for lang, cat in catalogues(work, domain):
            if msgid not in cat:
                continue
            found = True
            got = conv(cat[msgid])
            if got:
                yield lang, program, key, got[0], got[1]
        if not found:
            sys.exit("l10n: %s has no translation of %r: did the string "
                     "change?" % (domain, msgid))
        # English: the msgid is what the program writes untranslated.
        got = conv(msgid.split("\x04")[-1])
        if got:
            yield "en", program, key, got[0], got[1]


def main():
    work = sys.argv[1]
    rows = set(thunderbird(work)) | set(gettext_rows(work))
    # A catalogue that copies the English string is no translation: the
    # program writes English in that language, which English rows cover.
    english = {(r[1], r[2]): r[3] for r in rows if r[0] in ("en", "en-GB")}
    copies = {r for r in rows if r[0] not in ("en", "en-GB")
              and english.get((r[1], r[2])) == r[3]}
    for r in sorted(copies):
        print("l10n: %s %s %s is the English string; no row" % r[:3],
              file=sys.stderr)
    rows -= copies
    print("lang\tprogram\tkey\tform\traw")
    for row in sorted(rows):
        print("\t".join(tsv(c) for c in row))


if __name__ == "__main__":
    main()
