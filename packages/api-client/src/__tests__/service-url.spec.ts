import { describe, expect, it } from 'vitest';
import { isLoopbackHost, keyTransportProblem, originOf } from '../service-url';

describe('where an API key may be sent', () => {
  it('https anywhere; plain http only to loopback', () => {
    for (const ok of [
      'https://eo.example.com',
      'https://10.0.0.5:8443/api',
      'http://127.0.0.1:8080',
      'http://127.255.0.9',
      'http://localhost:3000',
      'http://LOCALHOST.',
      'http://api.localhost',
      'http://[::1]:8080',
    ])
      expect(keyTransportProblem(ok), ok).toBeNull();
    for (const bad of [
      'http://eo.example.com',
      'http://10.0.0.5:8080',
      'http://128.0.0.1',
      'http://127.0.0.1.evil.example',
      'http://localhost.evil.example',
      'http://[::2]',
      'http://0.0.0.0:8080',
      'ftp://127.0.0.1',
      'not a url',
    ])
      expect(keyTransportProblem(bad), bad).not.toBeNull();
    expect(keyTransportProblem('http://eo.example.com')).toMatch(/use https/);
  });

  it('loopback hosts and origins', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.0.0.256')).toBe(false);
    expect(originOf('https://eo.example.com:443/v0/x?y=1')).toBe('https://eo.example.com');
    expect(originOf('http://127.0.0.1:8080/a')).toBe('http://127.0.0.1:8080');
  });
});
