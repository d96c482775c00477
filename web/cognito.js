// The Cognito user pool's public API, called straight from the browser (the app client has no
// secret): sign-up, confirmation, password sign-in with the authenticator challenge, token
// refresh, sign-out and the authenticator (TOTP) setup. Every failure is a CognitoError whose
// `words` a person can act on.
import { cognitoWords } from "./words.js";

let settings = null;

export function configure(config) {
  settings = {
    endpoint: (config.aws_endpoint || `https://cognito-idp.${config.region}.amazonaws.com`).replace(/\/$/, ""),
    clientId: config.user_pool_client_id,
  };
}

export class CognitoError extends Error {
  constructor(type, message) {
    super(message || type);
    this.type = type;
    this.words = cognitoWords(type, message);
  }
}

async function call(action, payload) {
  let answer;
  try {
    answer = await fetch(`${settings.endpoint}/`, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": `AWSCognitoIdentityProviderService.${action}`,
      },
      body: JSON.stringify(payload),
    });
  } catch {
    throw new CognitoError("NetworkError", "network");
  }
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const type = String(data.__type || answer.headers.get("x-amzn-errortype") || "Unknown").split("#").pop().split(":")[0];
    throw new CognitoError(type, data.message || data.Message || "");
  }
  return data;
}

/** Tokens as the session keeps them; `expires_at` by this browser's clock. */
function tokens(result, refreshToken) {
  return {
    access_token: result.AccessToken,
    id_token: result.IdToken,
    refresh_token: result.RefreshToken || refreshToken,
    expires_at: Date.now() + (result.ExpiresIn || 3600) * 1000,
  };
}

export async function signUp(email, password) {
  const data = await call("SignUp", {
    ClientId: settings.clientId, Username: email, Password: password,
    UserAttributes: [{ Name: "email", Value: email }],
  });
  return { confirmed: Boolean(data.UserConfirmed), destination: (data.CodeDeliveryDetails || {}).Destination || email };
}

export async function confirmSignUp(email, code) {
  await call("ConfirmSignUp", { ClientId: settings.clientId, Username: email, ConfirmationCode: code });
}

export async function resendCode(email) {
  await call("ResendConfirmationCode", { ClientId: settings.clientId, Username: email });
}

/** Password sign-in: tokens, or a challenge ({challenge: "SOFTWARE_TOKEN_MFA", session}). */
export async function signIn(email, password) {
  const data = await call("InitiateAuth", {
    ClientId: settings.clientId, AuthFlow: "USER_PASSWORD_AUTH",
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  if (data.AuthenticationResult) return { tokens: tokens(data.AuthenticationResult) };
  return { challenge: data.ChallengeName, session: data.Session, parameters: data.ChallengeParameters || {} };
}

export async function answerCode(email, session, code) {
  const data = await call("RespondToAuthChallenge", {
    ClientId: settings.clientId, ChallengeName: "SOFTWARE_TOKEN_MFA", Session: session,
    ChallengeResponses: { USERNAME: email, SOFTWARE_TOKEN_MFA_CODE: code },
  });
  if (!data.AuthenticationResult) throw new CognitoError("NotAuthorizedException", "code");
  return tokens(data.AuthenticationResult);
}

export async function refresh(refreshToken) {
  const data = await call("InitiateAuth", {
    ClientId: settings.clientId, AuthFlow: "REFRESH_TOKEN_AUTH",
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
  return tokens(data.AuthenticationResult, refreshToken);
}

export async function signOut(accessToken) {
  await call("GlobalSignOut", { AccessToken: accessToken });
}

/** A new authenticator secret for the signed-in account (not in force until verified). */
export async function newAuthenticatorSecret(accessToken) {
  const data = await call("AssociateSoftwareToken", { AccessToken: accessToken });
  return data.SecretCode;
}

/** Check the app's first code, then make the authenticator the account's second factor. */
export async function turnOnAuthenticator(accessToken, code) {
  const data = await call("VerifySoftwareToken", { AccessToken: accessToken, UserCode: code, FriendlyDeviceName: "MineDuel web" });
  if (data.Status && data.Status !== "SUCCESS") throw new CognitoError("EnableSoftwareTokenMFAException", "code");
  await call("SetUserMFAPreference", {
    AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
  });
}

export async function authenticatorOn(accessToken) {
  const data = await call("GetUser", { AccessToken: accessToken });
  return (data.UserMFASettingList || []).includes("SOFTWARE_TOKEN_MFA");
}
