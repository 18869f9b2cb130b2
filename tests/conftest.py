import os

# Tests compare results, never time them; keep hypothesis quick but meaningful.
from hypothesis import settings

settings.register_profile("simcards", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "simcards"))
