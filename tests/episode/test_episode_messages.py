import sys


def test_importing_the_episode_and_suites_packages_stays_light():
    import subprocess

    code = (
        "import sys, hat_eval.episode, hat_eval.suites; "
        "print(sorted(m for m in ('inspect_ai', 'torch', 'transformers', 'locust') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
