#!/usr/bin/env python3
"""Checks the studio page's HTML, CSS and SVG, and what the page's files name, with the
standard library only (scripts/check-page.sh runs it after node and eslint read the scripts).

usage: check-page-markup.py ASSETS_FOLDER

- index.html: every element closed in order (void elements excepted), nothing left open, no
  duplicate id; no inline script (a <script> has a src and no text), no <style>, no style=
  or on…= attribute and no javascript: address, since the Content Security Policy
  (StudioServer.securityHeaders) refuses them and the page would break only in the browser;
  every /assets/NAME it links is a file of the folder (or a file the server makes).
- style.css (every .css): comments and strings closed, braces balanced.
- every .svg: well-formed XML.
- every .js: each `from "./NAME"` names a file of the folder (or one the server makes).

Prints one line per problem (FILE:LINE: what) and exits 1 when there is any.
"""
import html.parser
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

# Files the server makes when it starts instead of reading them from the folder:
# /assets/events.js is written from StudioEvent.allCases (Sources/ReelStudio/StudioEvent.swift),
# /assets/states.js from the job states (Sources/ReelStudio/StudioStates.swift).
GENERATED = {"events.js", "states.js"}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageParser(html.parser.HTMLParser):
    def __init__(self, name, present):
        super().__init__(convert_charrefs=True)
        self.name, self.present = name, present
        self.open, self.ids, self.problems = [], {}, []
        self.in_script = None

    def say(self, what):
        self.problems.append(f"{self.name}:{self.getpos()[0]}: {what}")

    def handle_starttag(self, tag, attrs):
        self.check_attributes(tag, dict(attrs), attrs)
        if tag == "style":
            self.say("a <style> element: the Content Security Policy allows style sheets from /assets/ only")
        if tag == "script":
            if not dict(attrs).get("src"):
                self.say("a <script> without src: the Content Security Policy refuses inline script")
            self.in_script = self.getpos()[0]
        if tag not in VOID:
            self.open.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):
        self.check_attributes(tag, dict(attrs), attrs)
        if tag not in VOID:
            self.say(f"<{tag} /> is not a void element: it stays open in HTML")
            self.open.append((tag, self.getpos()[0]))

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = None
        if tag in VOID:
            self.say(f"</{tag}>: a void element has no end tag")
        elif not self.open:
            self.say(f"</{tag}> closes nothing")
        elif self.open[-1][0] != tag:
            top, line = self.open[-1]
            self.say(f"</{tag}> while <{top}> (line {line}) is open")
            if any(open_tag == tag for open_tag, _ in self.open):
                while self.open and self.open.pop()[0] != tag:
                    pass
        else:
            self.open.pop()

    def handle_data(self, data):
        if self.in_script is not None and data.strip():
            self.say("text inside <script>: the Content Security Policy refuses inline script")

    def check_attributes(self, tag, named, pairs):
        for key, value in pairs:
            if key == "style":
                self.say(f"a style= attribute on <{tag}>: the Content Security Policy refuses inline style")
            elif key.startswith("on"):
                self.say(f"an {key}= attribute on <{tag}>: the Content Security Policy refuses inline handlers")
            elif value and value.strip().lower().startswith("javascript:"):
                self.say(f"a javascript: address in {key}= on <{tag}>")
            elif key in ("src", "href") and value and value.startswith("/assets/"):
                asset = value[len("/assets/"):].split("?")[0]
                if asset not in self.present:
                    self.say(f"{key}=\"{value}\": no such file in the page's folder")
        if "id" in named:
            identifier = named["id"]
            if identifier in self.ids:
                self.say(f"id \"{identifier}\" again (first on line {self.ids[identifier]})")
            else:
                self.ids[identifier] = self.getpos()[0]


def check_html(path, present):
    parser = PageParser(os.path.basename(path), present)
    with open(path, encoding="utf-8") as file:
        parser.feed(file.read())
    parser.close()
    for tag, line in parser.open:
        parser.problems.append(f"{parser.name}:{line}: <{tag}> is never closed")
    return parser.problems


def check_css(path):
    """Comments and strings closed, braces balanced (a CSS parser drops a rule it cannot read)."""
    name, problems = os.path.basename(path), []
    with open(path, encoding="utf-8") as file:
        text = file.read()
    depth, line, index, opened = 0, 1, 0, []
    while index < len(text):
        char = text[index]
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                return problems + [f"{name}:{line}: a comment that is never closed"]
            line += text.count("\n", index, end)
            index = end + 2
            continue
        if char in "\"'":
            end = index + 1
            while end < len(text) and text[end] != char and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            if end >= len(text) or text[end] != char:
                problems.append(f"{name}:{line}: a string that is never closed")
            index = end + 1
            continue
        if char == "\n":
            line += 1
        elif char == "{":
            depth += 1
            opened.append(line)
        elif char == "}":
            depth -= 1
            if depth < 0:
                problems.append(f"{name}:{line}: a }} that closes nothing")
                depth = 0
            else:
                opened.pop()
        index += 1
    problems += [f"{name}:{at}: a {{ that is never closed" for at in opened]
    return problems


def check_svg(path):
    try:
        ElementTree.parse(path)
        return []
    except ElementTree.ParseError as error:
        return [f"{os.path.basename(path)}:{error.position[0]}: not well-formed XML: {error}"]


IMPORT = re.compile(r"""\bfrom\s+["']\./([^"']+)["']""")


def check_imports(path, present):
    name, problems = os.path.basename(path), []
    with open(path, encoding="utf-8") as file:
        for number, text in enumerate(file, start=1):
            for module in IMPORT.findall(text):
                if module not in present:
                    problems.append(f"{name}:{number}: imports ./{module}, which is not in the page's folder")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    folder = sys.argv[1]
    files = sorted(os.listdir(folder))
    present = set(files) | GENERATED
    problems = []
    for name in files:
        path = os.path.join(folder, name)
        if name.endswith(".html"):
            problems += check_html(path, present)
        elif name.endswith(".css"):
            problems += check_css(path)
        elif name.endswith(".svg"):
            problems += check_svg(path)
        elif name.endswith(".js"):
            problems += check_imports(path, present)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
