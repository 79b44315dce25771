/** One plain chat completion through the gateway; its status (the body is read and dropped). */
export async function chatStatus(root: string, key: string, model: string): Promise<number> {
  const response = await fetch(`${root}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}
