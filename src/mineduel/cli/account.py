"""``mineduel account``: a player account in the stack's user pool, from the command line.

``sign-up`` (email and password), ``confirm`` (the emailed code), ``sign-in`` (answering the
authenticator challenge when TOTP is on) and ``totp-setup`` (add an authenticator app); and
for the operator, ``moderator`` (an account into or out of the pool's ``moderators`` group,
or the group's members listed: ``mineduel.cli.accounts.moderators``). The pool
is the local stack's by default (``GET /_local/config`` at ``--api``); ``--stack NAME`` reads a
deployed stack's ``ClientConfig`` output, ``--region`` with ``--user-pool-client-id`` names an
app client outright.

``sign-in`` prints the access token, the token the API takes (``Authorization: Bearer``), and
nothing else on standard output, so ``TOKEN=$(mineduel account sign-in ...)`` works; prompts
and messages go to standard error. Passwords come from a prompt without echo, or from the first
line of standard input with ``--password-stdin``; never from the command line, where other
users and the shell history would see them. Codes come from their option or from a prompt
(standard input). Refusals are one line and an exit code (see ``mineduel.cli.accounts.errors``).
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import json
import os
import sys

from mineduel.cli.accounts.cognito import (
    Accounts,
    Tokens,
    TotpChallenge,
    normalize_code,
    normalize_email,
    otpauth_uri,
)
from mineduel.cli.accounts.errors import EXIT_CANNOT_START, EXIT_INTERRUPTED, AccountError
from mineduel.cli.accounts.moderators import GROUP, Moderators
from mineduel.cli.accounts.pool import (
    DEFAULT_API,
    PoolConfig,
    explicit,
    from_local_stack,
    from_stack,
)

HELP = (
    "A player account: sign up, confirm, sign in (prints a token), set up TOTP; make a moderator."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the four actions, each with the options that say where the pool is."""
    where = argparse.ArgumentParser(add_help=False)
    group = where.add_argument_group("where the user pool is (default: the local stack)")
    group.add_argument(
        "--api",
        metavar="URL",
        help=f"a local stack, whose GET /_local/config names its pool ({DEFAULT_API})",
    )
    group.add_argument(
        "--stack", metavar="NAME", help="a deployed stack: read its ClientConfig output"
    )
    group.add_argument(
        "--user-pool-client-id", metavar="ID", help="a deployed app client (with --region)"
    )
    group.add_argument(
        "--region", help="AWS region of --stack or --user-pool-client-id (else $AWS_REGION)"
    )
    pool_only = argparse.ArgumentParser(add_help=False, parents=[where])  # no --email yet
    where.add_argument("--email", required=True, help="the account's email (its sign-in name)")

    password = argparse.ArgumentParser(add_help=False)
    password.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input instead of a prompt",
    )

    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser(
        "sign-up",
        parents=[where, password],
        help="create an account; a confirmation code is emailed",
        description="Create an account with an email and a password (asked twice).",
    )
    confirm = actions.add_parser(
        "confirm",
        parents=[where],
        help="confirm the email with the code it received",
        description="Confirm an account's email with the code sent at sign-up.",
    )
    confirm.add_argument(
        "--code", metavar="CODE", help="the 6-digit code (asked for when not given)"
    )
    sign_in = actions.add_parser(
        "sign-in",
        parents=[where, password],
        help="sign in and print the access token the API takes",
        description="Sign in; print the access token (Authorization: Bearer <token>).",
    )
    sign_in.add_argument(
        "--totp-code",
        metavar="CODE",
        help="the authenticator app's code, when TOTP is on (asked for otherwise)",
    )
    sign_in.add_argument(
        "--json",
        action="store_true",
        help="print every token as JSON (access, id, refresh, expires_in) instead",
    )
    totp = actions.add_parser(
        "totp-setup",
        parents=[where, password],
        help="add an authenticator app (TOTP) and make it the account's MFA",
        description="Print a new authenticator secret and its otpauth:// URI, check a first "
        "code from the app, and turn TOTP on as the account's preferred MFA.",
    )
    totp.add_argument(
        "--totp-code",
        metavar="CODE",
        help="the current code, if TOTP is on already (asked for otherwise)",
    )
    moderator = actions.add_parser(
        "moderator",
        parents=[pool_only],
        help="put an account in the moderators group (or take it out, or list the group)",
        description="Put the account in the user pool's moderators group, who review "
        "fair-play cases; it signs in again for a token that carries the group. On AWS this "
        "uses your AWS credentials (the pool's administrator calls); on the local stack none.",
    )
    moderator.add_argument("--email", help="the account's email (not with --list)")
    moderator.add_argument(
        "--user-pool-id", metavar="ID", help="the pool, with --user-pool-client-id"
    )
    choice = moderator.add_mutually_exclusive_group()
    choice.add_argument("--remove", action="store_true", help="take the account out instead")
    choice.add_argument("--list", action="store_true", help="print the members' emails")
    totp.add_argument(
        "--device-name",
        default="authenticator",
        help="a name for the app in the account (authenticator)",
    )


def run(args: argparse.Namespace) -> int:
    """Run one action; a refusal is one line on standard error and its exit code."""
    try:
        return _ACTIONS[args.action](args)
    except AccountError as exc:
        print(f"mineduel account {args.action}: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        print(f"mineduel account {args.action}: {exc}", file=sys.stderr)
        return EXIT_CANNOT_START


# ---------------------------------------------------------------------- the actions
def _sign_up(args: argparse.Namespace) -> int:
    email = normalize_email(args.email)
    accounts = Accounts(_pool(args))
    secret = _password(args, new=True)
    signed_up = accounts.sign_up(email, secret)
    if signed_up.confirmed:
        _say(f"Signed up {email}, confirmed already. Next: mineduel account sign-in")
        return 0
    _say(f"Signed up {email}. A confirmation code went to {signed_up.sent_to or 'its email'}.")
    if accounts.pool.local:
        _say("(The local stack sends no email and takes any 6 digits, e.g. 123456.)")
    _say(f"Next: mineduel account confirm --email {email} --code <code>")
    return 0


def _confirm(args: argparse.Namespace) -> int:
    email = normalize_email(args.email)
    accounts = Accounts(_pool(args))
    code = normalize_code(args.code or _ask("Code from the confirmation email: "))
    accounts.confirm(email, code)
    _say(f"Confirmed {email}. Next: mineduel account sign-in --email {email}")
    return 0


def _sign_in(args: argparse.Namespace) -> int:
    email, _, tokens = _signed_in(args)
    minutes = max(tokens.expires_in // 60, 1)
    if args.json:
        print(json.dumps(tokens.as_json(), indent=2), flush=True)
    else:
        print(tokens.access_token, flush=True)
    _say(
        f"Signed in as {email}. The access token is good for {minutes} minutes; send it as "
        "'Authorization: Bearer <token>'."
    )
    return 0


def _totp_setup(args: argparse.Namespace) -> int:
    email, accounts, tokens = _signed_in(args)
    secret = accounts.begin_totp(tokens.access_token, email)
    print(f"secret: {secret}", flush=True)
    print(f"uri:    {otpauth_uri(secret, email, local=accounts.pool.local)}", flush=True)
    _say("Add this secret to your authenticator app (type it, or make a QR code of the URI).")
    code = normalize_code(_ask("Then the 6-digit code the app shows: "))
    accounts.finish_totp(tokens.access_token, email, code, args.device_name)
    _say(f"TOTP is on for {email}: signing in now asks for the app's code as well.")
    return 0


def _moderator(args: argparse.Namespace) -> int:
    pool = _pool(args)
    if args.user_pool_id:
        pool = dataclasses.replace(pool, user_pool_id=args.user_pool_id)
    group = Moderators(pool)
    if args.list:
        if args.email:
            raise AccountError("--list lists the whole group: no --email.", EXIT_CANNOT_START)
        for email in group.members():
            print(email, flush=True)
        return 0
    if not args.email:
        raise AccountError("Give --email: the account to change (or --list).", EXIT_CANNOT_START)
    email = normalize_email(args.email)
    if args.remove:
        group.remove(email)
        _say(f"{email} is no longer in {GROUP}; tokens issued before keep it until they expire.")
        return 0
    group.add(email)
    _say(
        f"{email} is in {GROUP} of pool {group.pool_id}. Next: mineduel account sign-in "
        f"--email {email}, for a token that carries the group."
    )
    return 0


_ACTIONS = {
    "sign-up": _sign_up,
    "confirm": _confirm,
    "sign-in": _sign_in,
    "totp-setup": _totp_setup,
    "moderator": _moderator,
}


# ---------------------------------------------------------------------- shared steps
def _signed_in(args: argparse.Namespace) -> tuple[str, Accounts, Tokens]:
    """Sign in with email and password, answering the TOTP challenge if it comes."""
    email = normalize_email(args.email)
    accounts = Accounts(_pool(args))
    outcome = accounts.sign_in(email, _password(args))
    if isinstance(outcome, TotpChallenge):
        code = normalize_code(args.totp_code or _ask("Code from your authenticator app: "))
        return email, accounts, accounts.answer_totp(outcome, code)
    return email, accounts, outcome


def _pool(args: argparse.Namespace) -> PoolConfig:
    """Where the user pool is, from the options (the local stack unless told otherwise)."""
    deployed = args.stack or args.user_pool_client_id
    if args.stack and args.user_pool_client_id:
        raise AccountError("Give --stack or --user-pool-client-id, not both.", EXIT_CANNOT_START)
    if deployed and args.api:
        raise AccountError(
            "--api is the local stack; --stack and --user-pool-client-id are for AWS: "
            "give one or the other.",
            EXIT_CANNOT_START,
        )
    if args.region and not deployed:
        raise AccountError(
            "--region goes with --stack or --user-pool-client-id.", EXIT_CANNOT_START
        )
    region = args.region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if args.stack:
        return from_stack(args.stack, region)
    if args.user_pool_client_id:
        return explicit(region, args.user_pool_client_id)
    return from_local_stack(args.api or DEFAULT_API)


def _password(args: argparse.Namespace, *, new: bool = False) -> str:
    """The password: the first line of standard input, or asked for without echo."""
    if args.password_stdin:
        secret = sys.stdin.readline().rstrip("\r\n")
        if not secret:
            raise AccountError("No password on standard input.", EXIT_CANNOT_START)
        return secret
    try:
        secret = getpass.getpass("New password: " if new else "Password: ")
        if new and secret and getpass.getpass("Same password again: ") != secret:
            raise AccountError("The two passwords differ.", EXIT_CANNOT_START)
    except EOFError:
        secret = ""
    if not secret:
        raise AccountError("No password given.", EXIT_CANNOT_START)
    return secret


def _ask(prompt: str) -> str:
    """One line from standard input, after a prompt on standard error."""
    print(prompt, end="", file=sys.stderr, flush=True)
    line = sys.stdin.readline()
    if not sys.stdin.isatty():
        print(file=sys.stderr)  # a terminal echoes the Enter; piped input does not
    if not line:
        raise AccountError("No answer on standard input.", EXIT_CANNOT_START)
    return line.strip()


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
