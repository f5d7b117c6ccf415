/** Norwegian texts of the login flow that more than one place shows. */
export const authMessages = {
  loginNotStarted: 'Vi fikk ikke startet innloggingen. Prøv igjen om litt.',
} as const;
