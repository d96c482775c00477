"""Player accounts from the command line (``mineduel account``): finding the user pool, and
Cognito's sign-up, confirmation, sign-in (with its TOTP challenge) and TOTP set-up flows.

Everything here talks to Cognito's public, unauthenticated operations only, as a player's app
does: no AWS credentials are needed or read, except to look a deployed stack's outputs up.
"""
