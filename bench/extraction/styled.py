"""LoCoMo-style probe messages (issue 28, round 7, locomo): casual first-person chat in the
register of LoCoMo's speakers, for the observation kinds the report split lags on (activity,
family, like, pet, home), written as frames with fillers — each frame says what must be written
(``{v}`` the filler's value) or that nothing may be (another person's thing, the past, a
question, advice to the other speaker). ``uv run python -m bench.extraction.styled`` writes
``data/locomo-style.txt`` (the corpus format, all of it tuned on); the file is committed.
"""

from __future__ import annotations

from bench.extraction.corpus import DATA

ACTS = (
    "painting", "pottery", "surfing", "photography", "knitting", "yoga", "gardening", "baking",
    "swimming", "running", "skateboarding", "woodworking", "calligraphy", "cycling", "hiking",
)  # fmt: skip
KIN = (
    ("brother", "HAS_BROTHER"), ("sister", "HAS_SISTER"), ("cousin", "HAS_COUSIN"),
    ("husband", "HAS_SPOUSE"), ("wife", "HAS_SPOUSE"), ("kids", "HAS_CHILDREN"),
    ("son", "HAS_SON"), ("daughter", "HAS_DAUGHTER"), ("partner", "DATING"),
    ("girlfriend", "DATING"), ("boyfriend", "DATING"), ("children", "HAS_CHILDREN"),
    ("hubby", "HAS_SPOUSE", "husband"), ("brother", "HAS_BROTHER"), ("sister", "HAS_SISTER"),
)  # fmt: skip
PETS = (
    "dog", "cat", "puppy", "kitten", "turtles", "hamster", "bunny", "parrot", "dogs", "cats",
    "turtle", "guinea pig", "dog", "cat", "puppy",
)  # fmt: skip
PLACES = (
    "Ohio", "Seattle", "Denver", "Boston", "Texas", "Chicago", "Portland", "Miami", "Atlanta",
    "Vermont", "Oregon", "Austin", "Phoenix", "Detroit", "Nashville",
)  # fmt: skip
LIKED = (
    "gaming", "cooking", "reading", "writing", "dancing", "drawing", "singing", "gardening",
    "painting", "baking", "hiking", "swimming", "running", "knitting", "journaling",
)  # fmt: skip
WHO = "user"

# (category, frame, must, may): ``{x}`` the filler, ``{v}`` its label value.
FRAMES: dict[str, list[tuple[str, str, str]]] = {
    "activity": [
        ("I've taken up {x} this summer, it's so much fun!", "DOES={x}", ""),
        ("Hey! I got back into {x} recently and I'm loving it.", "DOES={x}", ""),
        ("I recently started {x} and I'm hooked!", "DOES={x}", ""),
        ("I've been doing a lot of {x} lately, keeps me sane.", "", "DOES=doing a lot of {x}/{x}"),
        ("{X} is a great way for me to unwind after work.", "LIKES={x}", ""),
        ("Honestly {x} relaxes me after a long day.", "LIKES={x}", ""),
        ("My sister has taken up {x} this summer.", "", "HAS_SISTER=sister; sister:DOES={x}"),
        ("I used to do {x} as a kid, those were the days.", "", ""),
        ("Do you still do {x}? You should totally try it again!", "", ""),
        ("You should try {x}, it's a great way to relax.", "", ""),
    ],
    "family": [
        (
            "My {x} and I went camping at the lake last weekend.",
            "{P}={v}",
            "DID=went camping at the lake @ 2025-12-31",
        ),  # the corpus's clock: 2026-01-07
        ("Spent the whole day at the beach with my {x}, it was awesome!", "{P}={v}", ""),
        ("Me and my {x} finally finished that puzzle lol.", "{P}={v}", ""),
        ("Your {x} sounds so sweet!", "", ""),
        ("Did you go with your {x}?", "", ""),
    ],
    "pet": [
        ("Here's a pic of my {x}, they love the sun.", "HAS_PET={x}", ""),
        ("I've had my {x} for three years now.", "HAS_PET={x}", ""),
        ("Our {x} knocked over my coffee again lol.", "HAS_PET={x}", ""),
        ("Walking my {x} every morning keeps me sane.", "HAS_PET={x}", "DOES=walking their {x}"),
        ("Your {x} is so cute!", "", ""),
        ("My neighbor's {x} is so loud.", "", ""),
        ("Do you have a {x}?", "", ""),
    ],
    "home": [
        ("I grew up in a small town in {x}, so city life is new to me.", "FROM={x}", ""),
        ("I'm originally from {x}, moved here a few years ago.", "FROM={x}", ""),
        ("I moved to {x} last year for work.", "LIVES_IN={x}", "DID=moved to {x}"),
        ("My sister lives in {x} now.", "", "HAS_SISTER=sister; sister:LIVES_IN={x}"),
        ("Have you ever been to {x}?", "", ""),
        ("I used to live in {x} back in college.", "", ""),
    ],
    "like": [
        ("{X} is a great way for me to unwind.", "LIKES={x}", ""),
        ("{X} has been my escape lately.", "LIKES={x}", ""),
        ("I've always loved {x}, ever since I was a kid.", "LIKES={x}", ""),
        ("I'm a huge fan of {x}, it's my thing.", "LIKES={x}", ""),
        ("{X} helps me clear my head.", "LIKES={x}", ""),
        ("You're so good at {x}!", "", ""),
        ("My brother loves {x}.", "", "HAS_BROTHER=brother; brother:LIKES={x}"),
        ("Do you like {x}?", "", ""),
        ("I used to love {x} back in high school.", "", ""),
        ("I love your {x}!", "", ""),
    ],
}
FILLERS = {"activity": ACTS, "family": KIN, "pet": PETS, "home": PLACES, "like": LIKED}


def lines() -> list[str]:
    out = []
    for category, frames in FRAMES.items():
        for frame, must, may in frames:
            for filler in FILLERS[category]:
                x, p, v = (*filler, filler[0])[:3] if isinstance(filler, tuple) else (filler,) * 3
                fill = {"x": x, "X": x.capitalize(), "P": p, "v": v}
                out.append(" | ".join((category, frame.format(**fill), must.format(**fill),
                                       may.format(**fill))))  # fmt: skip
    return out


def main() -> None:
    header = [f"# {line}" for line in __doc__.strip().splitlines()]
    (DATA / "locomo-style.txt").write_text("\n".join([*header, *lines()]) + "\n")


if __name__ == "__main__":
    main()
