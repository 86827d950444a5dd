import Foundation
import Logging
import PostgresNIO

/// What an administrator does once per cloud (`hyzer-hub cloud init`): makes the schema and a
/// role for each phone. Phones never do this; they cannot (they own nothing in the cloud).
public enum CloudAdmin {
    /// A phone's login: its role and the URL it sets with `hyzer-hub cloud set`.
    public struct PhoneLogin: Sendable {
        public let name: String
        public let url: String
    }

    /// Makes (or brings up to date) the schema at `adminURL`, a role allowed to create roles, then a
    /// role for each of `phones`; returns each phone's URL (the admin URL's server and database,
    /// the phone's role and a generated password). Running it again keeps every round and score.
    public static func initialize(_ adminURL: String, phones: [String], logger: Logger) async throws -> [PhoneLogin] {
        let address = try CloudAddress(parsing: adminURL)
        let connection = try await connect(address, logger: logger)
        do {
            for statement in CloudSchema.statements(CloudSchema.sql) {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            var logins: [PhoneLogin] = []
            for phone in phones {
                var password: String?
                for try await value in try await connection.query("SELECT hyzer_admin.add_phone(\(phone))", logger: logger).decode(String.self) {
                    password = value
                }
                guard let password else { throw CloudError.unusable("The cloud made no password for phone \(phone).") }
                logins.append(PhoneLogin(name: phone, url: address.url(user: phone, password: password)))
            }
            try? await connection.close()
            return logins
        } catch {
            try? await connection.close()
            throw CloudError.describe(error, address: address)
        }
    }

    /// Ends a phone's sessions and refuses its logins; its rounds and scores stay (history).
    /// Returns how many sessions were ended.
    public static func disablePhone(_ adminURL: String, phone: String, logger: Logger) async throws -> Int {
        let address = try CloudAddress(parsing: adminURL)
        let connection = try await connect(address, logger: logger)
        defer { Task { try? await connection.close() } }
        do {
            var ended = 0
            for try await value in try await connection.query("SELECT hyzer_admin.disable_phone(\(phone))", logger: logger).decode(Int.self) {
                ended = value
            }
            return ended
        } catch {
            throw CloudError.describe(error, address: address)
        }
    }

    private static func connect(_ address: CloudAddress, logger: Logger) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: try address.connectionConfiguration(connectTimeout: .seconds(10)), id: 1, logger: logger)
        } catch {
            throw CloudError.describe(error, address: address)
        }
    }
}
