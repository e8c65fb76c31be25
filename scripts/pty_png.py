"""A pyte screen drawn as a PNG (Pillow, DejaVu Sans Mono): the README's screenshot and
what a person looks at when a watch test fails."""
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
BASIC = {"black": (0, 0, 0), "red": (205, 49, 49), "green": (13, 188, 121), "yellow": (229, 229, 16),
         "blue": (36, 114, 200), "magenta": (188, 63, 188), "cyan": (17, 168, 205), "white": (229, 229, 229),
         "brown": (229, 229, 16)}
# Wide (CJK) characters from WenQuanYi Micro Hei where it is installed (fonts-wqy-microhei).
WIDE = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
FOREGROUND, BACKGROUND = (220, 220, 220), (24, 24, 28)


def color(name, default):
    if name == "default":
        return default
    if name in BASIC:
        return BASIC[name]
    try:
        return tuple(int(name[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return default


def render(screen, path, size=16):
    import os
    font, bold = ImageFont.truetype(FONT, size), ImageFont.truetype(BOLD, size)
    wide = ImageFont.truetype(WIDE, size) if os.path.exists(WIDE) else font
    width = int(font.getlength("M"))
    height = int(size * 1.3)
    image = Image.new("RGB", (width * screen.columns + 16, height * screen.lines + 16), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for y in range(screen.lines):
        row = screen.buffer[y]
        for x in range(screen.columns):
            cell = row[x]
            fg, bg = color(cell.fg, FOREGROUND), color(cell.bg, BACKGROUND)
            if cell.reverse:
                fg, bg = bg, fg
            left, top = 8 + x * width, 8 + y * height
            if bg != BACKGROUND:
                draw.rectangle([left, top, left + width - 1, top + height - 1], fill=bg)
            if cell.data and cell.data != " ":
                # A wide character is followed by an empty cell: the glyph spans both.
                wide_cell = x + 1 < screen.columns and row[x + 1].data == ""
                face = wide if wide_cell else bold if cell.bold else font
                draw.text((left, top + 2), cell.data, font=face, fill=fg)
    image.save(path)
