"""The computer opponent (issue 24): ``player.choose`` / ``decide`` / ``perform``, its levels
(``levels.py``, data in ``assets/opponent/levels.toml``) and computer-against-computer play (``autoplay.py``).
How it chooses and how the window calls it: ``docs/opponent.md``."""
