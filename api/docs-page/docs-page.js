/*
 * The API reference page (/docs): fetches this server's OpenAPI document and renders it with Swagger UI, served from
 * this server (no CDN). When the server authenticates callers, GET /v1/openapi.json answers 401 until the page sends
 * a bearer token: the page then asks for one, keeps it in memory only (never in browser storage), fetches the document
 * with it and hands it to Swagger UI's authorization, so "Try it out" sends it too (docs/api.md "API reference").
 */

const DOCUMENT_URL = '/v1/openapi.json';
/** The bearer security scheme's name in the document (api/openapi/openapi-document.ts). */
const BEARER_SCHEME = 'bearerAuth';

const form = document.getElementById('token-form');
const tokenInput = document.getElementById('token');
const tokenMessage = document.getElementById('token-message');
const loadError = document.getElementById('load-error');

function askForToken(message) {
  tokenMessage.textContent = message;
  form.hidden = false;
  tokenInput.focus();
}

function showError(message) {
  loadError.textContent = message;
  loadError.hidden = false;
}

async function load(token) {
  loadError.hidden = true;
  let response;
  try {
    response = await fetch(DOCUMENT_URL, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    showError(`The OpenAPI document could not be fetched: ${error}`);
    return;
  }
  if (response.status === 401) {
    askForToken(
      token
        ? 'The server refused this token: paste another one.'
        : 'This server authenticates its callers: paste a bearer token (its API key, or a JWT) to read and try its API.',
    );
    return;
  }
  if (!response.ok) {
    showError(`GET ${DOCUMENT_URL} answered ${response.status}.`);
    return;
  }
  form.hidden = true;
  const ui = SwaggerUIBundle({
    spec: await response.json(),
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayRequestDuration: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
  if (token) ui.preauthorizeApiKey(BEARER_SCHEME, token);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  load(tokenInput.value.trim());
});

load('');
