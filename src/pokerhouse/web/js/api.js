// HTTP to the room: JSON in and out, CSRF double submit on every POST.
//
// The server sets the `ph_csrf` cookie (readable by the page, SameSite=Strict)
// and wants its value back in the `X-CSRF-Token` header: another site can make
// the browser send the cookie but cannot read it to copy it into a header.

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

async function csrfToken() {
  const existing = cookie("ph_csrf");
  if (existing) return existing;
  const body = await request("GET", "/api/csrf");
  return body.csrf;
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    headers["X-CSRF-Token"] = await csrfToken();
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, "network", String(error));
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const code = (data && data.code) || `http_${response.status}`;
    const message = (data && data.message) || response.statusText;
    throw new ApiError(response.status, code, message, response.headers.get("Retry-After"));
  }
  return data;
}

export const api = {
  get: (path) => request("GET", path),
  post: (path, body = {}) => request("POST", path, body),
  /** The signed-in user (`/api/me`), or null when nobody is. */
  async me() {
    try {
      return await request("GET", "/api/me");
    } catch (error) {
      if (error.status === 401) return null;
      throw error;
    }
  },
};
