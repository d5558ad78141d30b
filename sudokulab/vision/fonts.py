"""The fonts digits are rendered from: Debian's font packages, split once and for all into
fonts the model is trained on and fonts held out to measure it (tests and the bench)."""

from __future__ import annotations

from pathlib import Path

from sudokulab.errors import FontsMissing

ROOTS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
PACKAGES = ("fonts-dejavu-core", "fonts-liberation", "fonts-freefont-ttf", "fonts-urw-base35",
            "fonts-noto-core")

# Sans, serif, monospaced, condensed, light and bold faces, old-style and geometric:
# the range of print a newspaper puzzle comes in.
TRAINING = (
    "dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSans-ExtraLight.ttf",
    "dejavu/DejaVuSansCondensed.ttf", "dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSerif.ttf",
    "dejavu/DejaVuSerif-Bold.ttf", "dejavu/DejaVuSerifCondensed.ttf",
    "liberation/LiberationSans-Regular.ttf", "liberation/LiberationSans-Bold.ttf",
    "liberation/LiberationSansNarrow-Regular.ttf", "liberation/LiberationSerif-Regular.ttf",
    "liberation/LiberationSerif-Bold.ttf", "liberation/LiberationMono-Regular.ttf",
    "freefont/FreeSans.ttf", "freefont/FreeSansBold.ttf", "freefont/FreeSerif.ttf",
    "freefont/FreeSerifBold.ttf", "freefont/FreeMono.ttf", "freefont/FreeMonoBold.ttf",
    "urw-base35/NimbusSans-Regular.otf", "urw-base35/NimbusSans-Bold.otf",
    "urw-base35/NimbusSansNarrow-Regular.otf", "urw-base35/NimbusRoman-Regular.otf",
    "urw-base35/NimbusRoman-Bold.otf", "urw-base35/NimbusMonoPS-Regular.otf",
    "urw-base35/URWBookman-Light.otf", "urw-base35/URWBookman-Demi.otf",
    "urw-base35/URWGothic-Book.otf", "urw-base35/URWGothic-Demi.otf",
    "liberation/LiberationSerif-Italic.ttf", "dejavu/DejaVuSans-Oblique.ttf",
)
# Never seen in training: Century Schoolbook (the newspaper face), Palatino, Noto.
HELD_OUT = (
    "urw-base35/C059-Roman.otf", "urw-base35/C059-Bold.otf", "urw-base35/P052-Roman.otf",
    "urw-base35/P052-Bold.otf", "noto/NotoSans-Regular.ttf", "noto/NotoSerif-Regular.ttf",
)



def path(name: str) -> Path:
    """The installed file of a font; FontsMissing naming the Debian packages if absent."""
    for root in ROOTS:
        if (root / name).exists():
            return root / name
    raise FontsMissing(f"font {name} is not installed; apt-get install {' '.join(PACKAGES)}")


def paths(names: tuple[str, ...]) -> list[Path]:
    """The installed files of several fonts."""
    return [path(name) for name in names]
